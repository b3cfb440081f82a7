import { spawn } from 'node:child_process';
import { z } from 'zod';
import { codeOf, messageOf } from '../../../platform/errors';
import { defineCheckType } from '../define';

const DEFAULT_PACKET_COUNT = 3;
/** Seconds to wait for replies when no threshold says otherwise (canary-checker's pinger waits 10 s). */
const DEFAULT_WAIT_S = 10;
/** Seconds between packets: the shortest interval iputils ping allows without root. */
const INTERVAL_S = 0.2;
const NOT_INSTALLED = 'the ping command is not installed (Debian: apt-get install iputils-ping)';

const schema = z
  .object({
    endpoint: z
      .string({ message: 'is required' })
      .trim()
      .regex(/^[A-Za-z0-9.:%_-]+$/, 'must be a host name or an IP address, e.g. 10.0.0.1 or db.internal'),
    thresholdMillis: z.number().int().positive().optional(),
    packetLossThreshold: z.number().min(0).max(100).optional(),
    packetCount: z.number().int().min(1).max(100).optional(),
  })
  .loose();

type IcmpSpec = z.infer<typeof schema>;

/** Seconds ping waits for replies after the last packet: a reply later than the threshold fails anyway. */
function waitSeconds(spec: IcmpSpec): number {
  return spec.thresholdMillis ? Math.max(1, Math.ceil((spec.thresholdMillis * 2) / 1000)) : DEFAULT_WAIT_S;
}

interface PingOutput {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  missing: boolean;
}

function ping(spec: IcmpSpec, count: number, signal: AbortSignal): Promise<PingOutput> {
  return new Promise((resolve) => {
    const args = ['-n', '-c', String(count), '-i', String(INTERVAL_S), '-W', String(waitSeconds(spec)), spec.endpoint];
    // The C locale keeps the summary lines in the English form parsed below.
    const child = spawn('ping', args, { env: { PATH: process.env.PATH, LANG: 'C', LC_ALL: 'C' }, signal, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', (error) => resolve({ exitCode: null, stdout, stderr: stderr || messageOf(error), missing: codeOf(error) === 'ENOENT' }));
    child.once('close', (exitCode) => resolve({ exitCode, stdout, stderr, missing: false }));
  });
}

/** The statistics iputils ping prints at the end. */
function parse(stdout: string) {
  const counts = /(\d+) packets transmitted, (\d+) received(?:, \+\d+ errors)?(?:, \+\d+ duplicates)?, ([\d.]+)% packet loss/.exec(stdout);
  if (!counts) return undefined;
  const rtt = /rtt min\/avg\/max\/mdev = ([\d.]+)\/([\d.]+)\/([\d.]+)\/([\d.]+) ms/.exec(stdout);
  const ip = /^PING \S+ \(([^)]+)\)/m.exec(stdout)?.[1] ?? '';
  return {
    ip,
    packetsSent: Number(counts[1]),
    packetsReceived: Number(counts[2]),
    packetLoss: Number(counts[3]),
    minRtt: rtt ? Number(rtt[1]) : 0,
    avgRtt: rtt ? Number(rtt[2]) : 0,
    maxRtt: rtt ? Number(rtt[3]) : 0,
  };
}

/**
 * `icmp`: pings the endpoint with the system's ping (iputils; Node has no raw ICMP sockets) and fails on
 * packet loss above packetLossThreshold (percent, default 0) or an average round trip above
 * thresholdMillis. Variables: endpoint, ip, packetsSent, packetsReceived, packetLoss, minRtt, avgRtt, maxRtt.
 */
export const icmpCheck = defineCheckType({
  type: 'icmp',
  label: 'ICMP (ping)',
  icon: 'radar',
  schema,
  endpoint: (spec) => spec.endpoint,
  timeoutMs: (spec) => ((spec.packetCount ?? DEFAULT_PACKET_COUNT) - 1) * INTERVAL_S * 1000 + waitSeconds(spec) * 1000 + 3000,
  async run(spec, ctx) {
    const count = spec.packetCount ?? DEFAULT_PACKET_COUNT;
    const output = await ping(spec, count, ctx.signal);
    if (output.missing) return { pass: false, invalid: true, message: NOT_INSTALLED, error: NOT_INSTALLED, data: { endpoint: spec.endpoint } };
    const stats = parse(output.stdout);
    if (!stats) {
      const reason = ctx.signal.aborted ? 'no result before the timeout' : output.stderr.trim().split('\n').at(-1) || `ping exited with code ${output.exitCode ?? 'none'}`;
      return { pass: false, message: `could not ping ${spec.endpoint}: ${reason}`, error: reason, data: { endpoint: spec.endpoint } };
    }
    // As canary-checker: the check's duration is the average round trip, at least 1 ms once there is one.
    const duration = stats.packetsReceived > 0 ? Math.max(1, Math.round(stats.avgRtt)) : 0;
    const data = { endpoint: spec.endpoint, ...stats };
    const details = { ...stats, output: output.stdout.trim().split('\n').slice(-2).join('\n') };
    const threshold = spec.packetLossThreshold ?? 0;
    const problems: string[] = [];
    if (stats.packetsReceived === 0) problems.push(`no reply from ${spec.endpoint} (${stats.packetsSent} sent, 100% packet loss)`);
    else if (stats.packetLoss > threshold) problems.push(`${stats.packetLoss}% packet loss, more than the threshold of ${threshold}%`);
    if (spec.thresholdMillis && stats.packetsReceived > 0 && stats.avgRtt > spec.thresholdMillis) {
      problems.push(`average round trip ${stats.avgRtt} ms, more than the threshold of ${spec.thresholdMillis} ms`);
    }
    if (problems.length > 0) return { pass: false, duration, message: problems.join('; '), data, details };
    return { pass: true, duration, message: `${stats.packetsReceived}/${stats.packetsSent} replies from ${stats.ip || spec.endpoint}, average ${stats.avgRtt} ms`, data, details };
  },
});
