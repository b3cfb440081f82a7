import { LOGS_DEFAULT_RANGE, LOGS_LIMIT_DEFAULT, LOGS_LIMIT_MAX } from '../../../../common/logs';
import type { ResolvedConnection } from '../../../platform/connections/types';
import { secretsOf } from '../../../platform/connections/testers/shared';
import { isRecord, messageOf } from '../../../platform/errors';
import { parseInstant } from '../../../platform/instants';
import { resolveTarget, searchLogFiles, targetFiles } from '../../logs';
import { logsActionSchema, type LogsActionSpec } from './schemas';
import { actionConnection, baseOf, blockOf, callApi, envValueOf, notRun, refused, stopReason } from './shared';
import type { ActionContext, ActionOutcome } from './types';

/** A log line as Mission Control's logs action returns it (its LogLine, the fields this console fills). */
interface ActionLogLine {
  id?: string;
  message: string;
  severity?: string;
  firstObserved: string;
  source?: string;
  labels: Record<string, string>;
}

type Range = { start: Date; end: Date; limit: number } | string;

/** start/end (ISO 8601, `now-1h`, `1h` before now; `since` before end when start is not given) and limit. */
function rangeOf(where: string, spec: { start?: string | undefined; end?: string | undefined; since?: string | undefined; limit?: string | number | undefined }): Range {
  const now = new Date();
  const end = parseInstant(spec.end, now);
  if (!end) return `${where}.end: ${JSON.stringify(spec.end)} is not a time (ISO 8601, now-1h or a duration before now)`;
  const startText = spec.start ?? (spec.since ? undefined : LOGS_DEFAULT_RANGE);
  const start = startText !== undefined ? parseInstant(startText, now) : parseInstant(spec.since, end);
  if (!start) return `${where}.${spec.start !== undefined ? 'start' : 'since'}: ${JSON.stringify(spec.start ?? spec.since)} is not a time (ISO 8601, now-1h or a duration before now)`;
  if (start > end) return `${where}.start: must be before end`;
  const limit = spec.limit === undefined ? LOGS_LIMIT_DEFAULT : Number(spec.limit);
  if (limit > LOGS_LIMIT_MAX) return `${where}.limit: must be at most ${LOGS_LIMIT_MAX}`;
  return { start, end, limit };
}

/** `backend` (this console's): the LogBackend's files searched as POST /api/logs searches them. */
async function searchBackend(ctx: ActionContext, spec: NonNullable<LogsActionSpec['backend']>): Promise<ActionOutcome> {
  if (!spec.name && !spec.component) return { result: {}, error: 'logs.backend: give a log backend name, or a component (id) whose logs to search' };
  const range = rangeOf('logs.backend', spec);
  if (typeof range === 'string') return { result: {}, error: range };
  let target: Awaited<ReturnType<typeof resolveTarget>>;
  try {
    target = await resolveTarget(ctx.pool, { name: spec.name, id: spec.component });
  } catch (error) {
    return { result: {}, error: `logs.backend: ${messageOf(error)}` };
  }
  const files = await targetFiles(target, ctx.signal);
  const found = await searchLogFiles(files, { query: spec.query ?? '', start: range.start, end: range.end, limit: range.limit, signal: ctx.signal });
  if (ctx.signal.aborted) return { result: {}, error: stopReason(ctx.signal) };
  const logs: ActionLogLine[] = found.results.map((line) => ({
    id: line.id,
    message: line.message,
    ...(line.level ? { severity: line.level } : {}),
    firstObserved: line.time,
    source: line.source,
    labels: line.labels,
  }));
  const metadata = { backends: target.backends.map((backend) => backend.name), total: found.total, files: found.files, start: range.start.toISOString(), end: range.end.toISOString(), ...(found.truncated.length > 0 ? { truncated: found.truncated } : {}) };
  return { result: { logs, metadata } };
}

/** Loki's nanosecond timestamps as ISO 8601. */
function lokiTime(nanos: unknown): string {
  const text = typeof nanos === 'string' && /^\d+$/.test(nanos) ? nanos : '0';
  return new Date(Number(BigInt(text) / 1_000_000n)).toISOString();
}

/** `loki`: a LogQL query_range through `url` (or `baseURL`) or a connection, with basic auth. */
async function queryLoki(ctx: ActionContext, spec: NonNullable<LogsActionSpec['loki']>): Promise<ActionOutcome> {
  let connection: ResolvedConnection | undefined;
  let username: string;
  let password: string;
  try {
    connection = spec.connection ? await actionConnection(ctx, spec.connection, 'logs.loki.connection') : undefined;
    username = (await envValueOf(ctx, spec.username, 'logs.loki.username')) || (connection?.username ?? '');
    password = (await envValueOf(ctx, spec.password, 'logs.loki.password')) || (connection?.password ?? '');
  } catch (error) {
    return notRun(error);
  }
  const base = baseOf(spec.url, spec.baseURL, connection?.url);
  if (!base) return { result: {}, error: 'logs.loki: needs a url, or a connection that has one' };
  const range = rangeOf('logs.loki', spec);
  if (typeof range === 'string') return { result: {}, error: range };
  const direction = spec.direction ?? 'backward';
  const query = new URLSearchParams({
    query: spec.query,
    limit: String(range.limit),
    start: `${range.start.getTime()}000000`,
    end: `${range.end.getTime()}000000`,
    direction,
  });
  const secrets = [password, ...(connection ? secretsOf(connection) : [])];
  const answer = await callApi(ctx, {
    method: 'GET',
    url: `${base}/loki/api/v1/query_range?${query.toString()}`,
    ...(username || password ? { basicAuth: { username, password } } : {}),
    insecureTLS: connection?.insecureTLS ?? false,
    secrets,
  });
  if ('error' in answer) return { result: {}, error: answer.error };
  if (answer.status >= 400) return { result: { status: answer.status }, error: `the Loki query failed: ${refused(answer, secrets)}` };
  const body = answer.json;
  const data = isRecord(body) ? body.data : undefined;
  if (!isRecord(data) || !Array.isArray(data.result)) return { result: { status: answer.status }, error: `${base} did not answer as Loki does ({status, data: {result}})` };
  if (data.resultType !== 'streams') return { result: { status: answer.status }, error: `the Loki query returned ${String(data.resultType)}, not log lines (streams): a metric query is not a logs query` };
  const logs: ActionLogLine[] = [];
  for (const stream of data.result) {
    if (!isRecord(stream) || !Array.isArray(stream.values)) continue;
    const labels = isRecord(stream.stream) ? Object.fromEntries(Object.entries(stream.stream).map(([key, value]) => [key, String(value)])) : {};
    const severity = labels.level ?? labels.severity ?? labels.detected_level;
    for (const value of stream.values) {
      if (!Array.isArray(value)) continue;
      logs.push({ message: String(value[1] ?? ''), ...(severity ? { severity } : {}), firstObserved: lokiTime(value[0]), labels });
    }
  }
  // Streams come one after the other: the lines merged in the direction asked.
  logs.sort((a, b) => (direction === 'backward' ? b.firstObserved.localeCompare(a.firstObserved) : a.firstObserved.localeCompare(b.firstObserved)));
  const stats = isRecord(data.stats) ? data.stats : undefined;
  return { result: { logs: logs.slice(0, range.limit), metadata: { start: range.start.toISOString(), end: range.end.toISOString(), ...(stats ? { stats } : {}) } } };
}

/**
 * `logs` (Mission Control's LogsAction): `loki` (a LogQL query_range) or `backend`, this console's own
 * LogBackend (its files, searched as the Logs page searches them). cloudwatch, opensearch and kubernetes
 * are Mission Control's too but not run here: the action fails naming them. Result: {logs: [{id, message,
 * severity, firstObserved, source, labels}], metadata}.
 */
export async function logs(ctx: ActionContext): Promise<ActionOutcome> {
  const read = blockOf(ctx, 'logs', logsActionSchema);
  if ('error' in read) return { result: {}, error: read.error };
  const spec = read.block;
  const given = (Object.keys(spec) as Array<keyof LogsActionSpec>).filter((key) => spec[key] !== undefined);
  if (given.length === 0) return { result: {}, error: 'logs: give one backend: loki or backend (this console\'s log backends); cloudwatch, opensearch and kubernetes are not supported here' };
  if (given.length > 1) return { result: {}, error: `logs: names ${given.join(' and ')}: give exactly one backend` };
  if (spec.backend) return searchBackend(ctx, spec.backend);
  if (spec.loki) return queryLoki(ctx, spec.loki);
  const named = given[0] === 'cloudWatch' ? 'cloudwatch' : given[0] === 'openSearch' ? 'opensearch' : given[0];
  return { result: {}, error: `logs.${named}: the ${named} log backend is not supported on this console (loki and backend — this console's log backends — are)` };
}
