import type { ResolvedConnection } from '../../../platform/connections/types';
import { secretsOf } from '../../../platform/connections/testers/shared';
import { isRecord } from '../../../platform/errors';
import { aiActionSchema, type AiActionSpec } from './schemas';
import { actionConnection, baseOf, blockOf, callApi, envValueOf, notRun, refused, type ApiAnswer } from './shared';
import type { ActionContext, ActionOutcome } from './types';
import { isOneOf } from '../../../../common/guards';

/** The backends spoken here: OpenAI's chat completions (OpenAI, Ollama) and Anthropic's messages. */
const SPOKEN = ['openai', 'ollama', 'anthropic'] as const;
type Backend = (typeof SPOKEN)[number];

/** Where each backend answers when neither the action nor its connection gives a URL (common/connections.ts placeholders). */
const DEFAULT_URLS: Record<Backend, string> = { openai: 'https://api.openai.com/v1', ollama: 'http://localhost:11434', anthropic: 'https://api.anthropic.com' };
/** Anthropic requires max_tokens; Mission Control's client sends this. */
const ANTHROPIC_MAX_TOKENS = 4096;

interface Client {
  backend: Backend;
  base: string;
  apiKey: string;
  model: string;
  secrets: string[];
}

/** The client from `connection` (its type is the backend, its url, password and model) and the action's fields over it. */
async function clientOf(ctx: ActionContext, spec: AiActionSpec): Promise<Client | string> {
  const connection: ResolvedConnection | undefined = spec.connection ? await actionConnection(ctx, spec.connection, 'ai.connection') : undefined;
  // Without a backend or connection, an apiURL is read as OpenAI-compatible (Mission Control defaults to anthropic).
  const named = (spec.backend?.trim().toLowerCase() || connection?.type || 'openai');
  if (!isOneOf(SPOKEN, named)) {
    return `ai: the ${named} backend is not supported here (${SPOKEN.join(', ')} are)${connection && !spec.backend ? `: connection ${connection.namespace}/${connection.name} is of type ${connection.type}` : ''}`;
  }
  const backend: Backend = named;
  const apiKey = (await envValueOf(ctx, spec.apiKey, 'ai.apiKey')) || (connection?.password ?? '');
  const model = spec.model?.trim() || connection?.properties.model?.trim() || '';
  if (!model) return 'ai.model: is required (or a connection that names one)';
  if (!apiKey && backend !== 'ollama') return `ai.apiKey: is required for ${backend} (or a connection with an API key)`;
  return { backend, base: baseOf(spec.apiURL, connection?.url, DEFAULT_URLS[backend]), apiKey, model, secrets: [apiKey, ...(connection ? secretsOf(connection) : [])] };
}

/** {base}/v1/chat/completions, or {base}/chat/completions when the base ends in /v1 already. */
function endpoint(base: string, path: string): string {
  return /\/v1$/.test(base) ? `${base}/${path}` : `${base}/v1/${path}`;
}

function openaiContent(answer: ApiAnswer): { model: unknown; content: string; usage: unknown } | undefined {
  const body = answer.json;
  if (!isRecord(body) || !Array.isArray(body.choices)) return undefined;
  const first: unknown = body.choices[0];
  const message = isRecord(first) ? first.message : undefined;
  const content = isRecord(message) && typeof message.content === 'string' ? message.content : undefined;
  return content === undefined ? undefined : { model: body.model, content, usage: body.usage ?? {} };
}

function anthropicContent(answer: ApiAnswer): { model: unknown; content: string; usage: unknown } | undefined {
  const body = answer.json;
  if (!isRecord(body) || !Array.isArray(body.content)) return undefined;
  const texts = body.content.flatMap((part: unknown) => (isRecord(part) && part.type === 'text' && typeof part.text === 'string' ? [part.text] : []));
  return { model: body.model, content: texts.join(''), usage: body.usage ?? {} };
}

/**
 * `ai` (Mission Control's AIAction, its client and prompts): sends `systemPrompt` and `prompt` to the
 * `connection`'s model or to `apiURL` with `apiKey` — an OpenAI-compatible chat completion for openai and
 * ollama, Anthropic's messages API for anthropic; another backend (gemini, …) fails naming it. `dryRun`
 * returns the prompts unsent. Result: {model, content, usage, json}: `json` is the answer's text again, under
 * the name Mission Control's result gives it (its playbooks read `(getAction "diagnose").result.json`). The
 * config context Mission Control adds (changes, analysis, relationships, playbooks) is not gathered here.
 */
export async function ai(ctx: ActionContext): Promise<ActionOutcome> {
  const read = blockOf(ctx, 'ai', aiActionSchema);
  if ('error' in read) return { result: {}, error: read.error };
  const spec = read.block;
  if (spec.dryRun) return { result: { dryRun: true, systemPrompt: spec.systemPrompt ?? '', prompt: spec.prompt } };
  let client: Client | string;
  try {
    client = await clientOf(ctx, spec);
  } catch (error) {
    return notRun(error);
  }
  if (typeof client === 'string') return { result: {}, error: client };
  const system = spec.systemPrompt?.trim() ? spec.systemPrompt : undefined;
  const anthropic = client.backend === 'anthropic';
  const url = endpoint(client.base, anthropic ? 'messages' : 'chat/completions');
  const answer = await callApi(ctx, {
    method: 'POST',
    url,
    json: anthropic
      ? { model: client.model, max_tokens: ANTHROPIC_MAX_TOKENS, ...(system ? { system } : {}), messages: [{ role: 'user', content: spec.prompt }] }
      : { model: client.model, messages: [...(system ? [{ role: 'system', content: system }] : []), { role: 'user', content: spec.prompt }] },
    ...(anthropic ? { headers: { 'x-api-key': client.apiKey, 'anthropic-version': '2023-06-01' } } : client.apiKey ? { bearerToken: client.apiKey } : {}),
    secrets: client.secrets,
  });
  if ('error' in answer) return { result: {}, error: answer.error };
  if (answer.status < 200 || answer.status > 299) return { result: { status: answer.status }, error: `${client.backend} model ${client.model}: ${refused(answer, client.secrets)}` };
  const found = anthropic ? anthropicContent(answer) : openaiContent(answer);
  if (!found) return { result: { status: answer.status }, error: `${client.backend} model ${client.model}: the answer has no message` };
  return { result: { model: typeof found.model === 'string' ? found.model : client.model, content: found.content, usage: found.usage, json: found.content } };
}
