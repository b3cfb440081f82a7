import type { ResolvedConnection } from '../../../platform/connections/types';
import { secretsOf } from '../../../platform/connections/testers/shared';
import { isRecord } from '../../../platform/errors';
import { prometheusActionSchema } from './schemas';
import { actionConnection, baseOf, blockOf, callApi, envValueOf, notRun, refused, textAt } from './shared';
import type { ActionContext, ActionOutcome } from './types';

/**
 * `prometheus`: a PromQL instant query (GET {url}/api/v1/query?query=…) through a prometheus
 * `connection` (its url, basic auth or bearer token, insecure TLS) or a `url` with the action's own
 * credentials. Result: {resultType, result} (and Prometheus' warnings); an error status fails it with
 * Prometheus' errorType and error.
 */
export async function prometheus(ctx: ActionContext): Promise<ActionOutcome> {
  const read = blockOf(ctx, 'prometheus', prometheusActionSchema);
  if ('error' in read) return { result: {}, error: read.error };
  const spec = read.block;
  let connection: ResolvedConnection | undefined;
  let username: string;
  let password: string;
  let bearer: string;
  try {
    connection = spec.connection ? await actionConnection(ctx, spec.connection, 'prometheus.connection') : undefined;
    username = (await envValueOf(ctx, spec.username, 'prometheus.username')) || (connection?.username ?? '');
    password = (await envValueOf(ctx, spec.password, 'prometheus.password')) || (connection?.password ?? '');
    bearer = (await envValueOf(ctx, spec.bearer, 'prometheus.bearer')) || (connection?.properties.bearer ?? '');
  } catch (error) {
    return notRun(error);
  }
  if (connection && connection.type !== 'prometheus') {
    return { result: {}, error: `prometheus.connection: ${connection.namespace}/${connection.name} is a ${connection.type} connection, not a prometheus one` };
  }
  const base = baseOf(spec.url, connection?.url);
  if (!base) return { result: {}, error: 'prometheus: needs a url, or a connection that has one' };
  const answer = await callApi(ctx, {
    method: 'GET',
    url: `${base}/api/v1/query?${new URLSearchParams({ query: spec.query }).toString()}`,
    ...(bearer ? { bearerToken: bearer } : username || password ? { basicAuth: { username, password } } : {}),
    insecureTLS: connection?.insecureTLS ?? false,
    secrets: [password, bearer, ...(connection ? secretsOf(connection) : [])],
  });
  if ('error' in answer) return { result: {}, error: answer.error };
  const body = answer.json;
  // Prometheus answers 400/422/503 with {status: "error", errorType, error}: that is the message.
  if (isRecord(body) && body.status === 'error') {
    return { result: { status: answer.status }, error: `the query failed: ${textAt(body, 'errorType') ?? 'error'}: ${textAt(body, 'error') ?? 'no reason given'}` };
  }
  if (answer.status >= 400) return { result: { status: answer.status }, error: `GET ${base}/api/v1/query: ${refused(answer, [password, bearer])}` };
  const data = isRecord(body) ? body.data : undefined;
  if (!isRecord(body) || body.status !== 'success' || !isRecord(data)) return { result: { status: answer.status }, error: `${base} did not answer as Prometheus does ({status: "success", data})` };
  const warnings = Array.isArray(body.warnings) ? body.warnings : [];
  return { result: { resultType: data.resultType, result: data.result, ...(warnings.length > 0 ? { warnings } : {}) } };
}
