import { isRecord } from '../../../platform/errors';
import { azureDevopsPipelineActionSchema } from './schemas';
import { baseOf, blockOf, callApi, envValueOf, notRun, refused, textAt } from './shared';
import type { ActionContext, ActionOutcome } from './types';

/** The Runs API version Mission Control calls when the pipeline names none. */
const DEFAULT_API_VERSION = '7.1-preview.1';

/**
 * Azure DevOps Services: https://dev.azure.com, or WATCHKEEPER_AZURE_DEVOPS_URL (an Azure DevOps Server
 * collection URL, or a local peer in tests); a connection's url wins where the action has one.
 */
export function azureDevopsBase(connectionUrl?: string): string {
  return baseOf(connectionUrl, process.env.WATCHKEEPER_AZURE_DEVOPS_URL, 'https://dev.azure.com');
}

/**
 * `azureDevopsPipeline` (Mission Control's AzureDevopsPipelineAction): runs the pipeline
 * (POST {org}/{project}/_apis/pipelines/{id}/runs) with `parameters` as the request body and the PAT
 * `token` as basic auth. Result: the run's {id, name, state, result, url}; a refusal fails it with the status.
 */
export async function azureDevopsPipeline(ctx: ActionContext): Promise<ActionOutcome> {
  const read = blockOf(ctx, 'azureDevopsPipeline', azureDevopsPipelineActionSchema);
  if ('error' in read) return { result: {}, error: read.error };
  const spec = read.block;
  let token: string;
  try {
    token = await envValueOf(ctx, spec.token, 'azureDevopsPipeline.token');
  } catch (error) {
    return notRun(error);
  }
  if (!token) return { result: {}, error: 'azureDevopsPipeline.token: is empty' };
  // Each is one segment of the API's path: `.` or `..` would address another endpoint.
  for (const [field, value] of [['org', spec.org], ['project', spec.project], ['pipeline.id', spec.pipeline.id]] as const) {
    if (['.', '..'].includes(value.trim())) return { result: {}, error: `azureDevopsPipeline.${field}: ${JSON.stringify(value)} is not a name` };
  }
  const query = new URLSearchParams({ ...(spec.pipeline.version ? { pipelineVersion: spec.pipeline.version } : {}), 'api-version': spec.pipeline.apiVersion?.trim() || DEFAULT_API_VERSION });
  const path = [spec.org, spec.project, '_apis', 'pipelines', spec.pipeline.id, 'runs'].map((part, index) => (index === 2 || index === 3 || index === 5 ? part : encodeURIComponent(part))).join('/');
  const answer = await callApi(ctx, {
    method: 'POST',
    url: `${azureDevopsBase()}/${path}?${query.toString()}`,
    json: spec.parameters ?? {},
    basicAuth: { username: '', password: token },
    secrets: [token, Buffer.from(`:${token}`).toString('base64')],
  });
  if ('error' in answer) return { result: {}, error: answer.error };
  if (answer.status < 200 || answer.status > 299) {
    return { result: { status: answer.status }, error: `pipeline ${spec.pipeline.id} of ${spec.org}/${spec.project} did not run: ${refused(answer, [token])}` };
  }
  const run = answer.json;
  if (!isRecord(run) || run.id === undefined) return { result: { status: answer.status }, error: `pipeline ${spec.pipeline.id}: the answer is not a run` };
  return {
    result: {
      id: run.id,
      name: textAt(run, 'name') ?? '',
      state: textAt(run, 'state') ?? '',
      ...(textAt(run, 'result') ? { result: textAt(run, 'result') } : {}),
      url: textAt(run, '_links', 'web', 'href') ?? textAt(run, 'url') ?? '',
    },
  };
}
