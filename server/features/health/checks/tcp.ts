import net from 'node:net';
import { z } from 'zod';
import { defineCheckType } from '../define';
import { egressConnectOptions } from '../../../platform/egress';

const schema = z
  .object({
    endpoint: z.string({ message: 'is required' }).trim().regex(/^(\[[^\]]+\]|[^:\s]+):\d{1,5}$/, 'must be host:port, e.g. db.internal:5432'),
    thresholdMillis: z.number().int().positive().optional(),
  })
  .loose();

/** `tcp`: the endpoint accepts a connection (within thresholdMillis, when set). Variables: endpoint, duration. */
export const tcpCheck = defineCheckType({
  type: 'tcp',
  label: 'TCP',
  icon: 'network',
  schema,
  endpoint: (spec) => spec.endpoint,
  timeoutMs: (spec) => (spec.thresholdMillis ? spec.thresholdMillis * 2 : undefined),
  async run(spec, ctx) {
    const at = spec.endpoint.lastIndexOf(':');
    const host = spec.endpoint.slice(0, at).replace(/^\[|\]$/g, '');
    const port = Number(spec.endpoint.slice(at + 1));
    const started = performance.now();
    // The egress policy (server/platform/egress.ts): a refused address is never connected to.
    const egress = await egressConnectOptions(host).catch((refused: Error) => refused);
    const error = egress instanceof Error ? egress : await new Promise<Error | undefined>((resolve) => {
      const socket = net.connect({ host, port, ...egress });
      const done = (outcome: Error | undefined) => {
        socket.destroy();
        ctx.signal.removeEventListener('abort', abort);
        resolve(outcome);
      };
      const abort = () => done(new Error('timed out'));
      ctx.signal.addEventListener('abort', abort, { once: true });
      socket.once('connect', () => done(undefined));
      socket.once('error', (cause) => done(cause));
    });
    const duration = Math.round(performance.now() - started);
    const data = { endpoint: spec.endpoint, duration, connected: error === undefined };
    if (error) return { pass: false, duration, message: `could not connect to ${spec.endpoint}: ${error.message}`, error: error.message, data };
    if (spec.thresholdMillis && duration > spec.thresholdMillis) {
      return { pass: false, duration, message: `connected in ${duration} ms, more than the threshold of ${spec.thresholdMillis} ms`, data };
    }
    return { pass: true, duration, message: `connected in ${duration} ms`, data };
  },
});
