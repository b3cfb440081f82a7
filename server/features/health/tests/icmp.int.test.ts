import { afterAll, describe, expect, it } from 'vitest';
import { closeHarness, outcome, result, validate } from '../testing/check-harness';

/**
 * The icmp check with the system's ping (iputils-ping; .ci/run installs it): 127.0.0.1 answers, an
 * address of TEST-NET-2 (RFC 5737, never routed) does not.
 */
const UNREACHABLE = '198.51.100.1';

afterAll(closeHarness);

describe('icmp', () => {
  it('validates the endpoint and the thresholds', () => {
    expect(validate('icmp', { name: 'p' }).errors).toEqual(['spec.icmp[0].endpoint: is required']);
    expect(validate('icmp', { name: 'p', endpoint: 'http://example.com/' }).errors).toEqual(['spec.icmp[0].endpoint: must be a host name or an IP address, e.g. 10.0.0.1 or db.internal']);
    expect(validate('icmp', { name: 'p', endpoint: '10.0.0.1', packetLossThreshold: 150, packetCount: 0 }).errors).toEqual([
      'spec.icmp[0].packetLossThreshold: Too big: expected number to be <=100',
      'spec.icmp[0].packetCount: Too small: expected number to be >=1',
    ]);
  });

  it('passes a host that answers, with loss and round trips as variables', async () => {
    const ran = await outcome('icmp', { name: 'lo', endpoint: '127.0.0.1', packetCount: 2, thresholdMillis: 1000 });
    expect(ran).toMatchObject({ pass: true, data: { endpoint: '127.0.0.1', ip: '127.0.0.1', packetsSent: 2, packetsReceived: 2, packetLoss: 0 } });
    expect(ran.data.avgRtt).toBeGreaterThan(0);
    expect(ran.duration).toBeGreaterThanOrEqual(1);
    expect(ran.message).toMatch(/^2\/2 replies from 127\.0\.0\.1, average [\d.]+ ms$/);
    expect(await result('icmp', { name: 'lo', endpoint: 'localhost', packetCount: 1, test: { expr: 'packetLoss == 0 && avgRtt < 500.0 && maxRtt >= minRtt' } })).toMatchObject({ pass: true });
  });

  it('fails an address that does not answer, within a bounded time', async () => {
    const started = Date.now();
    const ran = await outcome('icmp', { name: 'void', endpoint: UNREACHABLE, packetCount: 1, thresholdMillis: 400 });
    expect(ran).toMatchObject({ pass: false, message: `no reply from ${UNREACHABLE} (1 sent, 100% packet loss)`, data: { packetsReceived: 0, packetLoss: 100 } });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('fails a name that does not resolve', async () => {
    const ran = await outcome('icmp', { name: 'nx', endpoint: 'no-such-host.invalid', packetCount: 1, thresholdMillis: 400 });
    expect(ran.pass).toBe(false);
    expect(ran.message).toMatch(/^could not ping no-such-host\.invalid: ping: no-such-host\.invalid: /);
  });

  it('is invalid, saying how to install it, when ping is missing', async () => {
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      expect(await outcome('icmp', { name: 'lo', endpoint: '127.0.0.1' })).toMatchObject({
        pass: false,
        invalid: true,
        message: 'the ping command is not installed (Debian: apt-get install iputils-ping)',
      });
    } finally {
      process.env.PATH = path;
    }
  });
});
