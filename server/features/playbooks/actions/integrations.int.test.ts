import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../test/db';
import { createLogger } from '../../../platform/logger';
import { applyDocuments } from '../../../platform/resources';
import { initSecrets, secretStore } from '../../../platform/secrets';
import { connectionKind, secretKind } from '../../connections';
import { configureLogRoots, logBackendKind } from '../../logs';
import type { ActionSpec } from '../spec';
import { actionExecutors } from './index';
import type { ActionOutcome } from './types';

/**
 * The github, azureDevopsPipeline, prometheus, ai and logs executors against one node HTTP server on
 * 127.0.0.1 answering as GitHub, Azure DevOps, Prometheus, OpenAI (and Ollama), Anthropic and Loki do,
 * deterministically, and against a LogBackend reading files in a temporary directory.
 */
const log = createLogger('silent');
let db: TestDatabase;
let scratch: string;
let peer: http.Server;
let base: string;
const received: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string }> = [];
const environment = { github: process.env.WATCHKEEPER_GITHUB_API_URL, azure: process.env.WATCHKEEPER_AZURE_DEVOPS_URL };

type Type = 'github' | 'azureDevopsPipeline' | 'prometheus' | 'ai' | 'logs';

async function run(type: Type, block: Record<string, unknown>, signal?: AbortSignal): Promise<ActionOutcome> {
  const executor = actionExecutors[type];
  if (!executor) throw new Error(`no executor for ${type}`);
  const spec: ActionSpec = { name: 'step', [type]: block };
  return executor({
    pool: db.pool,
    secrets: secretStore(db.pool),
    log,
    namespace: 'default',
    runId: '00000000-0000-0000-0000-000000000000',
    actionId: '00000000-0000-0000-0000-000000000000',
    spec,
    templateData: {},
    env: {},
    signal: signal ?? AbortSignal.timeout(20_000),
    workDir: () => Promise.reject(new Error('not used')),
  });
}

const last = (prefix: string) => [...received].reverse().find((request) => request.url.startsWith(prefix));
const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(body));
};

function answer(req: http.IncomingMessage, res: http.ServerResponse, body: string): void {
  const url = new URL(req.url ?? '/', 'http://peer');
  const auth = req.headers.authorization ?? '';
  // GitHub: workflow dispatch answers 204, an unknown workflow 404.
  const dispatch = /^\/repos\/acme\/app\/actions\/workflows\/([^/]+)\/dispatches$/.exec(url.pathname);
  if (dispatch) {
    if (auth !== 'Bearer gh-t0ken') return json(res, 401, { message: 'Bad credentials' });
    if (dispatch[1] === 'missing.yaml') return json(res, 404, { message: 'Not Found' });
    res.statusCode = 204;
    return void res.end();
  }
  // Azure DevOps: a run of pipeline 42.
  const pipeline = /^\/org1\/proj1\/_apis\/pipelines\/(\d+)\/runs$/.exec(url.pathname);
  if (pipeline) {
    if (auth !== `Basic ${Buffer.from(':azure-p4t').toString('base64')}`) return json(res, 401, { message: 'unauthorized' });
    if (pipeline[1] !== '42') return json(res, 404, { message: `Pipeline with id ${pipeline[1]} not found.` });
    return json(res, 200, { id: 99, name: '20240101.1', state: 'inProgress', url: 'https://dev.azure.example/api/runs/99', _links: { web: { href: 'https://dev.azure.example/org1/proj1/_build/results?buildId=99' } } });
  }
  // Prometheus, open at /prom and behind a bearer token at /secure.
  if (url.pathname === '/prom/api/v1/query' || url.pathname === '/secure/api/v1/query') {
    if (url.pathname.startsWith('/secure') && auth !== 'Bearer prom-t0ken') return json(res, 401, { status: 'error', errorType: 'unauthorized', error: 'who are you' });
    const query = url.searchParams.get('query') ?? '';
    if (query.includes('(') && !query.includes(')')) return json(res, 400, { status: 'error', errorType: 'bad_data', error: 'parse error: unclosed left parenthesis' });
    return json(res, 200, { status: 'success', data: { resultType: 'vector', result: [{ metric: { job: 'api', __name__: query }, value: [1700000000, '1'] }] } });
  }
  // OpenAI-compatible chat completions (OpenAI at /openai/v1, Ollama at /ollama) echo the prompt.
  if (url.pathname === '/openai/v1/chat/completions' || url.pathname === '/ollama/v1/chat/completions') {
    if (url.pathname.startsWith('/openai') && auth !== 'Bearer sk-t3st') return json(res, 401, { error: { message: 'Incorrect API key provided' } });
    const request = JSON.parse(body) as { model: string; messages: Array<{ role: string; content: string }> };
    const said = request.messages.map((message) => `${message.role}:${message.content}`).join(' / ');
    return json(res, 200, { model: request.model, choices: [{ index: 0, message: { role: 'assistant', content: `echo ${said}` } }], usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 } });
  }
  if (url.pathname === '/anthropic/v1/messages') {
    if (req.headers['x-api-key'] !== 'ant-k3y' || !req.headers['anthropic-version']) return json(res, 401, { error: { message: 'invalid x-api-key' } });
    const request = JSON.parse(body) as { model: string; system?: string; messages: Array<{ content: string }> };
    return json(res, 200, { model: request.model, content: [{ type: 'text', text: `${request.system ?? ''}|${request.messages[0]?.content ?? ''}` }], usage: { input_tokens: 4, output_tokens: 2 } });
  }
  // Loki: two streams of the query asked.
  if (url.pathname === '/loki/api/v1/query_range') {
    if (auth !== `Basic ${Buffer.from('loki:l0ki-pass').toString('base64')}`) return json(res, 401, { message: 'no' });
    if (url.searchParams.get('query')?.startsWith('sum(')) return json(res, 200, { status: 'success', data: { resultType: 'matrix', result: [] } });
    return json(res, 200, {
      status: 'success',
      data: {
        resultType: 'streams',
        result: [
          { stream: { app: 'api', level: 'error' }, values: [['1700000002000000000', 'boom'], ['1700000000000000000', 'first boom']] },
          { stream: { app: 'web' }, values: [['1700000001000000000', 'hello']] },
        ],
      },
    });
  }
  json(res, 404, { message: 'Not Found' });
}

beforeAll(async () => {
  scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-actions-more-'));
  initSecrets(path.join(scratch, 'data'));
  // Log backends read only under the log roots (docs/LOGS.md): this test's logs folder.
  configureLogRoots({ dataDir: path.join(scratch, 'data'), logRoots: [path.join(scratch, 'logs')] });
  db = await createTestDatabase();
  peer = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      if (req.url?.startsWith('/slow')) return; // never answers: the signal ends the wait
      answer(req, res, body);
    });
  });
  await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(peer.address() as AddressInfo).port}`;
  await fs.mkdir(path.join(scratch, 'logs'));
  const now = Date.now();
  const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString();
  await fs.writeFile(path.join(scratch, 'logs', 'app.log'), [
    `${at(200)} ERROR long ago`,
    `${at(30)} INFO started`,
    `${at(20)} ERROR payment failed`,
    JSON.stringify({ time: at(10), level: 50, msg: 'payment retry failed' }),
  ].join('\n'));
  const results = await applyDocuments(db.pool, [connectionKind, secretKind, logBackendKind], [{
    file: 'test.yaml',
    text: `
apiVersion: v1
kind: Secret
metadata: {name: tokens}
stringData: {github: gh-t0ken, azure: azure-p4t}
---
apiVersion: mission-control.flanksource.com/v1
kind: Connection
metadata: {name: prom}
spec:
  prometheus: {url: "${base}/secure", bearer: prom-t0ken}
---
apiVersion: mission-control.flanksource.com/v1
kind: Connection
metadata: {name: web-api}
spec: {type: http, url: "${base}/prom"}
---
apiVersion: mission-control.flanksource.com/v1
kind: Connection
metadata: {name: gpt}
spec:
  openai: {url: "${base}/openai/v1", apiKey: sk-t3st, model: gpt-test}
---
apiVersion: mission-control.flanksource.com/v1
kind: Connection
metadata: {name: llama}
spec:
  ollama: {url: "${base}/ollama", apiKey: unused, model: llama3.1:8b}
---
apiVersion: mission-control.flanksource.com/v1
kind: Connection
metadata: {name: claude}
spec:
  anthropic: {url: "${base}/anthropic", apiKey: ant-k3y, model: claude-test}
---
apiVersion: mission-control.flanksource.com/v1
kind: Connection
metadata: {name: loki}
spec: {type: http, url: "${base}", username: loki, password: l0ki-pass}
---
apiVersion: watchkeeper.dev/v1
kind: LogBackend
metadata: {name: app-logs}
spec:
  files:
    - paths: ["${scratch}/logs/*.log"]
      labels: {app: payments}
`,
  }], 'ConfigFile', log);
  expect(results.map((result) => result.errors)).toEqual(results.map(() => []));
});

afterEach(() => {
  for (const [name, value] of [['WATCHKEEPER_GITHUB_API_URL', environment.github], ['WATCHKEEPER_AZURE_DEVOPS_URL', environment.azure]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

afterAll(async () => {
  peer?.closeAllConnections();
  await new Promise<void>((resolve) => (peer ? peer.close(() => resolve()) : resolve()));
  await db?.drop();
  if (scratch) await fs.rm(scratch, { recursive: true, force: true });
});

describe('github', () => {
  it('dispatches each workflow with its ref and inputs and the token from a secret', async () => {
    process.env.WATCHKEEPER_GITHUB_API_URL = base;
    const outcome = await run('github', {
      repo: 'app',
      username: 'acme',
      token: { valueFrom: { secretKeyRef: { name: 'tokens', key: 'github' } } },
      workflows: [{ id: 'deploy.yaml', ref: 'release', input: '{"environment": "prod", "dry": "false"}' }, { id: 'notify.yaml' }],
    });
    expect(outcome.error).toBeUndefined();
    expect(outcome.result).toEqual({ workflows: [{ id: 'deploy.yaml', status: 204 }, { id: 'notify.yaml', status: 204 }] });
    const deploy = received.find((request) => request.url === '/repos/acme/app/actions/workflows/deploy.yaml/dispatches');
    expect(deploy?.headers.authorization).toBe('Bearer gh-t0ken');
    expect(JSON.parse(deploy?.body ?? '{}')).toEqual({ ref: 'release', inputs: { environment: 'prod', dry: 'false' } });
    expect(JSON.parse(last('/repos/acme/app/actions/workflows/notify.yaml')?.body ?? '{}')).toEqual({ ref: 'main' });
  });

  it('fails naming the workflow and the status; refuses bad input and bad fields before sending', async () => {
    process.env.WATCHKEEPER_GITHUB_API_URL = base;
    const token = { value: 'gh-t0ken' };
    const missing = await run('github', { repo: 'acme/app', token, workflows: [{ id: 'deploy.yaml' }, { id: 'missing.yaml' }, { id: 'never.yaml' }] });
    expect(missing.error).toBe('workflow missing.yaml of acme/app was not dispatched: HTTP 404 Not Found: Not Found');
    expect(missing.result).toEqual({ workflows: [{ id: 'deploy.yaml', status: 204 }, { id: 'missing.yaml', status: 404 }] });
    const count = received.length;
    expect((await run('github', { repo: 'app', username: 'acme', token, workflows: [{ id: 'deploy.yaml', input: 'not json' }] })).error).toMatch(/^github\.workflows\[0\]\.input: is not JSON/);
    expect((await run('github', { repo: 'app', token: 'x', workflows: [{ id: 'a' }] })).error).toBe('github.username: is required (the owner of the repository) unless repo is written owner/name');
    expect((await run('github', { repo: '', workflows: [{}] })).error).toBe('github.repo: is required; github.token: must be a text, {value} or {valueFrom}; github.workflows[0].id: is required');
    // A templated repo or id cannot climb out of its path segment to another endpoint.
    expect((await run('github', { repo: '..', username: 'acme', token, workflows: [{ id: 'deploy.yaml' }] })).error).toBe('github.repo: "acme/.." is not owner/name');
    expect((await run('github', { repo: 'acme/app/extra', token, workflows: [{ id: 'deploy.yaml' }] })).error).toBe('github.repo: "acme/app/extra" is not owner/name');
    expect((await run('github', { repo: 'acme/app', token, workflows: [{ id: '..' }] })).error).toBe('github.workflows[0].id: ".." is not a workflow id or file name');
    expect(received.length).toBe(count);
    const refused = await run('github', { repo: 'acme/app', token: { value: 'wrong-t0ken' }, workflows: [{ id: 'deploy.yaml' }] });
    expect(refused.error).toBe('workflow deploy.yaml of acme/app was not dispatched: HTTP 401 Unauthorized: Bad credentials');
  });
});

describe('azureDevopsPipeline', () => {
  it('runs the pipeline with its parameters and the PAT as basic auth; answers the run', async () => {
    process.env.WATCHKEEPER_AZURE_DEVOPS_URL = base;
    const parameters = { templateParameters: { env: 'prod' }, variables: { tag: { value: '1.2.3' } }, stagesToSkip: ['test'], previewRun: false };
    const outcome = await run('azureDevopsPipeline', { org: 'org1', project: 'proj1', token: { valueFrom: { secretKeyRef: { name: 'tokens', key: 'azure' } } }, pipeline: { id: '42' }, parameters });
    expect(outcome.error).toBeUndefined();
    expect(outcome.result).toEqual({ id: 99, name: '20240101.1', state: 'inProgress', url: 'https://dev.azure.example/org1/proj1/_build/results?buildId=99' });
    const request = last('/org1/proj1/_apis/pipelines/42/runs');
    expect(request?.url).toBe('/org1/proj1/_apis/pipelines/42/runs?api-version=7.1-preview.1');
    expect(JSON.parse(request?.body ?? '{}')).toEqual(parameters);
    await run('azureDevopsPipeline', { org: 'org1', project: 'proj1', token: 'azure-p4t', pipeline: { id: 42, version: 3, apiVersion: '7.1' } });
    expect(last('/org1/proj1/_apis/pipelines/42/runs')?.url).toBe('/org1/proj1/_apis/pipelines/42/runs?pipelineVersion=3&api-version=7.1');
  });

  it('fails with the status and what Azure DevOps said; names missing fields', async () => {
    process.env.WATCHKEEPER_AZURE_DEVOPS_URL = base;
    const outcome = await run('azureDevopsPipeline', { org: 'org1', project: 'proj1', token: 'azure-p4t', pipeline: { id: '7' } });
    expect(outcome.error).toBe('pipeline 7 of org1/proj1 did not run: HTTP 404 Not Found: Pipeline with id 7 not found.');
    expect((await run('azureDevopsPipeline', { org: 'org1', token: 'x', pipeline: {} })).error).toBe('azureDevopsPipeline.project: is required; azureDevopsPipeline.pipeline.id: is required');
    expect((await run('azureDevopsPipeline', { org: 'org1', project: '..', token: 'x', pipeline: { id: '7' } })).error).toBe('azureDevopsPipeline.project: ".." is not a name');
  });
});

describe('prometheus', () => {
  it('queries through a prometheus connection (bearer token) or a url', async () => {
    const outcome = await run('prometheus', { connection: 'connection://default/prom', query: 'up{job="api"}' });
    expect(outcome.error).toBeUndefined();
    expect(outcome.result).toEqual({ resultType: 'vector', result: [{ metric: { job: 'api', __name__: 'up{job="api"}' }, value: [1700000000, '1'] }] });
    expect(last('/secure/api/v1/query')?.headers.authorization).toBe('Bearer prom-t0ken');
    const byUrl = await run('prometheus', { url: `${base}/prom/`, query: 'up' });
    expect(byUrl.result.resultType).toBe('vector');
    expect(last('/prom/api/v1/query')?.url).toBe('/prom/api/v1/query?query=up');
  });

  it("fails with Prometheus' error, on a connection of another type, and without a url", async () => {
    expect((await run('prometheus', { url: `${base}/prom`, query: 'rate(up[5m]' })).error).toBe('the query failed: bad_data: parse error: unclosed left parenthesis');
    expect((await run('prometheus', { connection: 'web-api', query: 'up' })).error).toBe('prometheus.connection: default/web-api is a http connection, not a prometheus one');
    expect((await run('prometheus', { query: 'up' })).error).toBe('prometheus: needs a url, or a connection that has one');
    expect((await run('prometheus', { url: base })).error).toBe('prometheus.query: is required');
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('the action timed out after 200ms')), 200);
    const at = Date.now();
    expect((await run('prometheus', { url: `${base}/slow`, query: 'up' }, controller.signal)).error).toBe(`GET ${base}/slow/api/v1/query: the action timed out after 200ms`);
    expect(Date.now() - at).toBeLessThan(5_000);
  });
});

describe('ai', () => {
  it('asks an OpenAI connection (base ending in /v1) with the system prompt; answers model, content and usage', async () => {
    const outcome = await run('ai', { connection: 'gpt', systemPrompt: 'You are terse.', prompt: 'Why is the pod failing?' });
    expect(outcome.error).toBeUndefined();
    expect(outcome.result).toEqual({ model: 'gpt-test', content: 'echo system:You are terse. / user:Why is the pod failing?', usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 }, json: 'echo system:You are terse. / user:Why is the pod failing?' });
    expect(last('/openai/v1/chat/completions')?.headers.authorization).toBe('Bearer sk-t3st');
  });

  it('asks by apiURL and apiKey (OpenAI-compatible), Ollama and Anthropic connections; dryRun sends nothing', async () => {
    const byUrl = await run('ai', { apiURL: `${base}/openai`, apiKey: { value: 'sk-t3st' }, model: 'gpt-other', prompt: 'hi' });
    expect(byUrl.result).toMatchObject({ model: 'gpt-other', content: 'echo user:hi' });
    expect(last('/openai/v1/chat/completions')).toBeDefined();
    const ollama = await run('ai', { connection: 'llama', prompt: 'hi' });
    expect(ollama.result).toMatchObject({ model: 'llama3.1:8b', content: 'echo user:hi' });
    const claude = await run('ai', { connection: 'claude', systemPrompt: 'sys', prompt: 'hello' });
    expect(claude.error).toBeUndefined();
    expect(claude.result).toEqual({ model: 'claude-test', content: 'sys|hello', usage: { input_tokens: 4, output_tokens: 2 }, json: 'sys|hello' });
    const count = received.length;
    expect((await run('ai', { connection: 'gpt', prompt: 'p', systemPrompt: 's', dryRun: true })).result).toEqual({ dryRun: true, systemPrompt: 's', prompt: 'p' });
    expect(received.length).toBe(count);
  });

  it('refuses a backend it cannot speak, a missing model or key, and says what a refusal said without the key', async () => {
    expect((await run('ai', { backend: 'gemini', apiKey: 'k', model: 'gemini-pro', prompt: 'x' })).error).toBe('ai: the gemini backend is not supported here (openai, ollama, anthropic are)');
    expect((await run('ai', { connection: 'web-api', prompt: 'x' })).error).toBe('ai: the http backend is not supported here (openai, ollama, anthropic are): connection default/web-api is of type http');
    expect((await run('ai', { apiURL: `${base}/openai`, apiKey: 'k', prompt: 'x' })).error).toBe('ai.model: is required (or a connection that names one)');
    expect((await run('ai', { apiURL: `${base}/openai`, model: 'm', prompt: 'x' })).error).toBe('ai.apiKey: is required for openai (or a connection with an API key)');
    const refused = await run('ai', { apiURL: `${base}/openai/v1`, apiKey: 'sk-wrong', model: 'm', prompt: 'x' });
    expect(refused.error).toBe('openai model m: HTTP 401 Unauthorized: Incorrect API key provided');
    expect((await run('ai', { connection: 'gpt' })).error).toBe('ai.prompt: is required');
  });
});

describe('logs', () => {
  it("searches this console's log backend: lines of the range containing the query, newest first", async () => {
    const outcome = await run('logs', { backend: { name: 'app-logs', query: 'payment', start: 'now-1h', limit: '10' } });
    expect(outcome.error).toBeUndefined();
    const logs = outcome.result.logs as Array<Record<string, unknown>>;
    expect(logs.map((line) => line.message)).toEqual(['payment retry failed', expect.stringContaining('payment failed')]);
    expect(logs[0]).toMatchObject({ severity: 'error', labels: { backend: 'app-logs', app: 'payments' } });
    expect(outcome.result.metadata).toMatchObject({ backends: ['app-logs'], total: 2, files: 1 });
    const all = await run('logs', { backend: { name: 'app-logs', start: '24h' } });
    expect((all.result.logs as unknown[]).length).toBe(4);
    expect((await run('logs', { backend: { name: 'none' } })).error).toBe('logs.backend: log backend "none" not found');
    expect((await run('logs', { backend: { name: 'app-logs', start: 'yesterday-ish' } })).error).toBe('logs.backend.start: "yesterday-ish" is not a time (ISO 8601, now-1h or a duration before now)');
  });

  it('queries Loki through a connection with basic auth; lines merged newest first', async () => {
    const outcome = await run('logs', { loki: { connection: 'loki', query: '{app=~"api|web"}', start: '2023-11-14T00:00:00Z', end: '2023-11-15T00:00:00Z', limit: 2 } });
    expect(outcome.error).toBeUndefined();
    expect(outcome.result.logs).toEqual([
      { message: 'boom', severity: 'error', firstObserved: '2023-11-14T22:13:22.000Z', labels: { app: 'api', level: 'error' } },
      { message: 'hello', firstObserved: '2023-11-14T22:13:21.000Z', labels: { app: 'web' } },
    ]);
    const query = new URL(last('/loki/api/v1/query_range')?.url ?? '/', 'http://peer').searchParams;
    expect(Object.fromEntries(query)).toEqual({ query: '{app=~"api|web"}', limit: '2', start: '1699920000000000000', end: '1700006400000000000', direction: 'backward' });
    expect((await run('logs', { loki: { connection: 'loki', query: 'sum(rate({app="api"}[5m]))' } })).error).toBe('the Loki query returned matrix, not log lines (streams): a metric query is not a logs query');
  });

  it('names the backends this console does not run, and a block with none or two', async () => {
    expect((await run('logs', { cloudwatch: { logGroup: 'x', query: 'fields @message' } })).error).toBe('logs.cloudwatch: the cloudwatch log backend is not supported on this console (loki and backend — this console\'s log backends — are)');
    expect((await run('logs', { openSearch: { index: 'x', query: '{}' } })).error).toMatch(/^logs\.opensearch: the opensearch log backend is not supported/);
    expect((await run('logs', { kubernetes: { kind: 'Pod', name: 'x' } })).error).toMatch(/^logs\.kubernetes: the kubernetes log backend is not supported/);
    expect((await run('logs', {})).error).toMatch(/^logs: give one backend/);
    expect((await run('logs', { loki: { url: base, query: 'x' }, backend: { name: 'app-logs' } })).error).toBe('logs: names loki and backend: give exactly one backend');
  });
});
