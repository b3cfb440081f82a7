import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';

export interface Push {
  token: string | undefined;
  agent: Record<string, unknown>;
  batch_id: string;
  upserts: Record<string, Array<Record<string, unknown>>>;
  deletes: Record<string, Array<Record<string, unknown>>>;
}

export type Decide = (push: Push) => { status: number; body: unknown } | 'hang';

/**
 * A stand-in upstream on 127.0.0.1 for the pusher's tests: records every push and answers what `decide`
 * says. `accepted` holds what a 200 took, so tests count each row's arrivals.
 */
export async function fakeUpstream(decide: Decide, port = 0): Promise<{
  url: string;
  pushes: Push[];
  accepted: Push[];
  setDecide(next: Decide): void;
  close(): Promise<void>;
}> {
  let current = decide;
  const pushes: Push[] = [];
  const accepted: Push[] = [];
  const hanging: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url !== '/api/agent/push' || req.method !== 'POST') {
        res.writeHead(404).end();
        return;
      }
      const raw = Buffer.concat(chunks);
      const text = req.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(raw).toString('utf8') : raw.toString('utf8');
      const auth = req.headers.authorization;
      const push = { ...(JSON.parse(text) as Omit<Push, 'token'>), token: auth?.startsWith('Bearer ') ? auth.slice(7) : undefined };
      pushes.push(push);
      const answer = current(push);
      if (answer === 'hang') {
        hanging.push(res);
        return;
      }
      if (answer.status === 200) accepted.push(push);
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}`,
    pushes,
    accepted,
    setDecide(next) {
      current = next;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export const ok = (push: Push) => ({
  status: 200,
  body: {
    agent: { id: '11111111-1111-1111-1111-111111111111', name: push.agent.name },
    accepted: Object.fromEntries(Object.entries(push.upserts).map(([table, rows]) => [table, rows.length])),
    deleted: Object.fromEntries(Object.entries(push.deletes).map(([table, rows]) => [table, rows.length])),
  },
});

/** Every accepted arrival of a row, by table and key (JSON of the key columns). */
export function arrivals(pushes: Push[], keyOf: (table: string, row: Record<string, unknown>) => string = (_table, row) => String(row.id)): Map<string, number> {
  const seen = new Map<string, number>();
  for (const push of pushes) {
    for (const [table, rows] of Object.entries(push.upserts)) for (const row of rows) {
      const id = `${table}:${keyOf(table, row)}`;
      seen.set(id, (seen.get(id) ?? 0) + 1);
    }
  }
  return seen;
}

export async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}
