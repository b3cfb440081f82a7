import { isRecord } from '../../../platform/errors';
import { githubActionSchema } from './schemas';
import { baseOf, blockOf, callApi, envValueOf, notRun, refused } from './shared';
import type { ActionContext, ActionOutcome } from './types';

/**
 * The GitHub REST API: https://api.github.com, or WATCHKEEPER_GITHUB_API_URL (GitHub Enterprise's
 * `https://host/api/v3`, or a local peer in tests). The github action has no connection to carry one.
 */
export function githubApiBase(connectionUrl?: string): string {
  return baseOf(connectionUrl, process.env.WATCHKEEPER_GITHUB_API_URL, 'https://api.github.com');
}

/** A workflow's `input`: a JSON object of texts (GitHub refuses other inputs); undefined when none is given. */
function inputsOf(input: string | undefined, where: string): Record<string, unknown> | undefined | string {
  if (input === undefined || input.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(input);
  } catch (error) {
    return `${where}: is not JSON (${error instanceof Error ? error.message : String(error)})`;
  }
  return isRecord(parsed) ? parsed : `${where}: must be a JSON object of input names to values`;
}

/**
 * `github` (Mission Control's GithubAction): dispatches each of `workflows` of `username/repo`
 * (POST /repos/{owner}/{repo}/actions/workflows/{id}/dispatches with {ref, inputs}) with the personal
 * access `token`, in order; the first refusal stops it, naming the workflow and the status.
 * Result: {workflows: [{id, status}]}.
 */
export async function github(ctx: ActionContext): Promise<ActionOutcome> {
  const read = blockOf(ctx, 'github', githubActionSchema);
  if ('error' in read) return { result: {}, error: read.error };
  const spec = read.block;
  let token: string;
  try {
    token = await envValueOf(ctx, spec.token, 'github.token');
  } catch (error) {
    return notRun(error);
  }
  if (!token) return { result: {}, error: 'github.token: is empty' };
  const repo = spec.repo.includes('/') || !spec.username ? spec.repo : `${spec.username}/${spec.repo}`;
  if (!repo.includes('/')) return { result: {}, error: 'github.username: is required (the owner of the repository) unless repo is written owner/name' };
  // Each part is one segment of the API's path: `..` or an empty part would address another endpoint.
  if (repo.split('/').length !== 2 || repo.split('/').some((part) => ['', '.', '..'].includes(part.trim()))) {
    return { result: {}, error: `github.repo: ${JSON.stringify(repo)} is not owner/name` };
  }
  const dotted = spec.workflows.findIndex((workflow) => ['.', '..'].includes(workflow.id.trim()));
  if (dotted >= 0) return { result: {}, error: `github.workflows[${dotted}].id: ${JSON.stringify(spec.workflows[dotted]?.id)} is not a workflow id or file name` };
  const base = githubApiBase();
  const inputs = spec.workflows.map((workflow, index) => inputsOf(workflow.input, `github.workflows[${index}].input`));
  const bad = inputs.find((input): input is string => typeof input === 'string');
  if (bad) return { result: {}, error: bad };
  const done: Array<{ id: string; status: number }> = [];
  for (const [index, workflow] of spec.workflows.entries()) {
    const input = inputs[index];
    const answer = await callApi(ctx, {
      method: 'POST',
      url: `${base}/repos/${repo.split('/').map(encodeURIComponent).join('/')}/actions/workflows/${encodeURIComponent(workflow.id)}/dispatches`,
      headers: { accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' },
      json: { ref: workflow.ref?.trim() || 'main', ...(isRecord(input) ? { inputs: input } : {}) },
      bearerToken: token,
      secrets: [token],
    });
    if ('error' in answer) return { result: { workflows: done }, error: `workflow ${workflow.id}: ${answer.error}` };
    done.push({ id: workflow.id, status: answer.status });
    if (answer.status < 200 || answer.status > 299) {
      return { result: { workflows: done }, error: `workflow ${workflow.id} of ${repo} was not dispatched: ${refused(answer, [token])}` };
    }
  }
  return { result: { workflows: done } };
}
