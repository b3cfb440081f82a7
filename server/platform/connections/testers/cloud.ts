import { connectionType } from '../../../../common/connections';
import { isRecord } from '../../errors';
import type { ConnectionTester, ResolvedConnection, TestOutcome } from '../types';
import { baseUrl, exchange, failed, isLoopback, jsonOf, labelOf, passed, untested, type PeerRequest } from './shared';

/** What each cloud-only type would need to reach, when common/connections.ts does not name it. */
const SERVICE: Record<string, string> = {
  github: 'the GitHub API',
  gitlab: 'GitLab',
  openai: 'the OpenAI API',
  anthropic: 'the Anthropic API',
  ollama: 'an Ollama server',
};

function cannotTest(connection: ResolvedConnection): TestOutcome {
  const target = connectionType(connection.type)?.cloud ?? SERVICE[connection.type] ?? 'the service';
  return untested(`${labelOf(connection)} connections cannot be tested here: this server has no route to ${target}`);
}

/** aws, s3, azure, azure_devops, google_cloud, gcs, kubernetes: the cloud field of the type table names what is out of reach. */
export const testCloud: ConnectionTester = async (connection) => cannotTest(connection);

/**
 * An API that lives in the cloud but that a url may point at this machine (GitHub Enterprise, a GitLab,
 * an OpenAI-compatible or Ollama server): with a loopback url, one GET that needs the token; otherwise
 * the cannot-test answer (no claim is made without talking to the peer).
 */
function loopbackApi(build: (base: string, connection: ResolvedConnection) => PeerRequest, describe: (json: unknown, connection: ResolvedConnection) => TestOutcome): ConnectionTester {
  return async (connection, signal) => {
    if (!connection.url.trim() || !isLoopback(connection.url.trim())) return cannotTest(connection);
    const result = await exchange(connection, signal, build(baseUrl(connection.url, ''), connection));
    if ('outcome' in result) return result.outcome;
    return describe(jsonOf(result.response), connection);
  };
}

const field = (json: unknown, key: string): string => (isRecord(json) && typeof json[key] === 'string' ? json[key] : '');

const authenticated = (json: unknown, key: string) => {
  const who = field(json, key);
  return who ? passed(`authenticated as ${who}`) : failed('the answer names no user');
};

/** The models a list answers (`data[].id` for OpenAI and Anthropic, `models[].name` for Ollama); properties.model must be among them when set. */
function models(list: unknown[], key: 'id' | 'name', connection: ResolvedConnection): TestOutcome {
  const names = list.map((item) => (isRecord(item) && typeof item[key] === 'string' ? item[key] : '')).filter(Boolean);
  const wanted = connection.properties.model?.trim();
  if (wanted && !names.some((name) => name === wanted || name.startsWith(`${wanted}:`))) return failed(`model ${wanted} is not among the ${names.length} models the server lists`);
  return passed(`${names.length} model${names.length === 1 ? '' : 's'} listed${wanted ? `, ${wanted} among them` : ''}`);
}

const dataList = (json: unknown, key: string): unknown[] | undefined => (isRecord(json) && Array.isArray(json[key]) ? json[key] : undefined);

/** `github`: GET {url}/user with the token. */
export const testGithub = loopbackApi((base, c) => ({ url: `${base}/user`, headers: { accept: 'application/vnd.github+json' }, bearerToken: c.password }), (json) => authenticated(json, 'login'));

/** `gitlab`: GET {url}/api/v4/user with `PRIVATE-TOKEN`. */
export const testGitlab = loopbackApi((base, c) => ({ url: `${base}/api/v4/user`, headers: { 'private-token': c.password } }), (json) => authenticated(json, 'username'));

/** `openai` (and compatible servers): GET {url}/models with the key as bearer. */
export const testOpenai = loopbackApi(
  (base, c) => ({ url: `${base}/models`, ...(c.password ? { bearerToken: c.password } : {}) }),
  (json, c) => {
    const list = dataList(json, 'data');
    return list ? models(list, 'id', c) : failed('the answer is not a model list (no data)');
  },
);

/** `anthropic`: GET {url}/v1/models ({url}/models when url ends in /v1) with `x-api-key` and `anthropic-version`. */
export const testAnthropic = loopbackApi(
  (base, c) => ({ url: `${base}${/\/v1$/.test(base) ? '' : '/v1'}/models`, headers: { 'x-api-key': c.password, 'anthropic-version': '2023-06-01' } }),
  (json, c) => {
    const list = dataList(json, 'data');
    return list ? models(list, 'id', c) : failed('the answer is not a model list (no data)');
  },
);

/** `ollama`: GET {url}/api/tags (the key as bearer when set, for a server behind a proxy). */
export const testOllama = loopbackApi(
  (base, c) => ({ url: `${base}/api/tags`, ...(c.password ? { bearerToken: c.password } : {}) }),
  (json, c) => {
    const list = dataList(json, 'models');
    return list ? models(list, 'name', c) : failed(`the answer is not an Ollama model list (no models)`);
  },
);
