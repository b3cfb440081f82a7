import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { createRunner } from '../index';
import type { PlaybookRunner } from '../runner';
import { finishedRun } from '../testing/runs';

/**
 * Issue 36 §3: an action's fields are templated as Mission Control templates them — an http body always (its
 * `templateBody` flag does not gate it), an exec action's own `env` never — and a value in a JSON body is data.
 */

let t: TestApp;
let runner: PlaybookRunner | undefined;
let sink: Server;
let sinkUrl = '';
const bodies: string[] = [];

async function post(url: string, payload: unknown) {
  return t.app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, headers: t.adminHeaders });
}

const finished = (id: string, millis?: number) => finishedRun(t.db.pool, id, millis);

beforeAll(async () => {
  t = await createTestApp();
  runner = createRunner(t.context, { pollMillis: 200, leaseMillis: 3_000 });
  await runner.start();
  sink = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await runner?.stop();
  if (sink) await new Promise((resolve) => sink.close(resolve));
  await t?.close();
});

describe('templated action fields', () => {
  it('sends an http body templated without templateBody, each value JSON data; exec.env is used as written, the playbook env templated', async () => {
    const saved = await post('/api/playbooks', {
      name: 'templated-body',
      spec: {
        parameters: [{ name: 'word' }, { name: 'count' }],
        env: [{ name: 'PLAYBOOK_WORD', value: '{{.params.word}}' }],
        actions: [
          { name: 'send', http: { url: `${sinkUrl}/hook`, method: 'POST', headers: [{ name: 'Content-Type', value: 'application/json' }], body: '{"word": "{{.params.word}}", "count": {{.params.count}}}' } },
          { name: 'env', exec: { script: 'printf "%s|%s" "$ACTION_WORD" "$PLAYBOOK_WORD"', env: [{ name: 'ACTION_WORD', value: '{{.params.word}}' }] } },
        ],
      },
    });
    expect(saved.statusCode, saved.body).toBe(201);
    expect(saved.json().warnings).toContain('spec.actions[1].exec.env[0].value is not templated (as in Mission Control): its {{ … }} is used as written');

    const word = 'hi", "admin": true, "x": "';
    const started = await post('/api/playbook/run', { id: saved.json().id, params: { word, count: '2' } });
    expect(started.statusCode, started.body).toBe(201);
    const run = await finished(started.json().run_id);
    expect(run.actions.map((action) => [action.name, action.status, action.error])).toEqual([['send', 'completed', null], ['env', 'completed', null]]);
    expect(JSON.parse(bodies.at(-1) ?? '')).toEqual({ word, count: 2 });
    expect(run.actions[1]?.result.stdout).toBe(`{{.params.word}}|${word}`);
  });
});
