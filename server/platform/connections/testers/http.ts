import { isRecord } from '../../errors';
import type { HttpResponse } from '../../peers/http-client';
import type { ConnectionTester, ResolvedConnection, TestOutcome } from '../types';
import { failed, httpTest, InvalidUrl, jsonOf, passed, reasonOf, refusal, request, secretsOf, shownUrl } from './shared';

/** Basic auth from the username and password columns, when either is set. */
function basicAuth(connection: ResolvedConnection): { basicAuth?: { username: string; password: string } } {
  return connection.username || connection.password ? { basicAuth: { username: connection.username, password: connection.password } } : {};
}

/** `http`: GET url (basic auth when set, insecure_tls honoured); ok below 400, with the status line. */
export const testHttp: ConnectionTester = (connection, signal) => httpTest(connection, signal, { url: connection.url, ...basicAuth(connection) });

/** `elasticsearch`: GET url as http does; the root answers the cluster's name and version, shown when there. */
export const testElasticsearch: ConnectionTester = (connection, signal) =>
  httpTest(connection, signal, { url: connection.url, headers: { accept: 'application/json' }, ...basicAuth(connection) }, (response) => {
    const json = jsonOf(response);
    const version = isRecord(json) && isRecord(json.version) && typeof json.version.number === 'string' ? json.version.number : undefined;
    const cluster = isRecord(json) && typeof json.cluster_name === 'string' ? json.cluster_name : undefined;
    if (!version) return undefined;
    return `${isRecord(json) && isRecord(json.version) && json.version.distribution === 'opensearch' ? 'OpenSearch' : 'Elasticsearch'} ${version}${cluster ? ` (cluster ${cluster})` : ''}`;
  });

/** `dynatrace`: GET url with the API token as Dynatrace reads it (`Authorization: Api-Token …`). */
export const testDynatrace: ConnectionTester = (connection, signal) =>
  httpTest(connection, signal, { url: connection.url, headers: { accept: 'application/json', ...(connection.password ? { authorization: `Api-Token ${connection.password}` } : {}) } });

/**
 * `prometheus`: GET {url}/api/v1/status/buildinfo (Prometheus 2.14 and later) and answers its version;
 * a server without it (404: Thanos, VictoriaMetrics, older Prometheus) is asked `vector(1)` instead.
 * Auth: basic from username/password, else bearer from properties.bearer.
 */
export const testPrometheus: ConnectionTester = async (connection, signal) => {
  const base = connection.url.trim().replace(/\/+$/, '');
  const auth = connection.username || connection.password ? basicAuth(connection) : connection.properties.bearer ? { bearerToken: connection.properties.bearer } : {};
  const get = (path: string) => request(connection, signal, { url: `${base}${path}`, headers: { accept: 'application/json' }, ...auth });
  const where = shownUrl(base);
  let response: HttpResponse;
  try {
    response = await get('/api/v1/status/buildinfo');
    if (response.status === 404) {
      response = await get('/api/v1/query?query=vector(1)');
      return answered(response, where, () => 'the query API answered (no build information)');
    }
  } catch (error) {
    if (error instanceof InvalidUrl) return failed(error.message);
    return failed(`could not reach ${where}: ${reasonOf(error, signal, secretsOf(connection))}`);
  }
  return answered(response, where, (data) => (typeof data.version === 'string' ? `Prometheus ${data.version}` : 'answered its build information'));
};

/** A Prometheus API answer: `{status: "success", data}` is ok, anything else says why not. */
function answered(response: HttpResponse, where: string, describe: (data: Record<string, unknown>) => string): TestOutcome {
  if (response.status >= 400) return failed(`${where}: ${refusal(response)}`);
  const json = jsonOf(response);
  if (!isRecord(json) || json.status !== 'success' || (!isRecord(json.data) && !Array.isArray(json.data))) return failed(`${where} answered HTTP ${response.status} without a Prometheus API answer`);
  return passed(describe(isRecord(json.data) ? json.data : {}));
}
