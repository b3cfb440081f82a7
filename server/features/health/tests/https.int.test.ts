import type http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { close, closeHarness, closedPort, listen, outcome, result, selfSigned, validate, type Certificate } from '../testing/check-harness';

/**
 * http over TLS and the tls check, against real node:https servers with self-signed certificates made
 * here with openssl: one valid for a year, one that expires tomorrow, one that asks for a client certificate.
 */
let longLived: Certificate;
let shortLived: Certificate;
let client: Certificate;
let yearServer: https.Server;
let soonServer: https.Server;
let mutualServer: https.Server;
let year = 0;
let soon = 0;
let mutual = 0;

const answer = (req: http.IncomingMessage, res: http.ServerResponse) => {
  const peer = req.socket instanceof tls.TLSSocket ? req.socket.getPeerCertificate() : undefined;
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ secure: true, client: peer?.subject?.CN ?? null }));
};

beforeAll(async () => {
  [longLived, shortLived, client] = await Promise.all([selfSigned(365), selfSigned(1), selfSigned(30, 'test-client')]);
  yearServer = https.createServer({ cert: longLived.cert, key: longLived.key }, answer);
  soonServer = https.createServer({ cert: shortLived.cert, key: shortLived.key }, answer);
  mutualServer = https.createServer({ cert: longLived.cert, key: longLived.key, requestCert: true, rejectUnauthorized: true, ca: client.cert }, answer);
  [year, soon, mutual] = await Promise.all([listen(yearServer), listen(soonServer), listen(mutualServer)]);
}, 60_000);

afterAll(async () => {
  await Promise.all([close(yearServer), close(soonServer), close(mutualServer)]);
  await closeHarness();
});

describe('http over https', () => {
  it('refuses a self-signed certificate unless told to skip verification or given its CA', async () => {
    const url = `https://127.0.0.1:${year}/`;
    const refused = await outcome('http', { name: 's', url });
    expect(refused).toMatchObject({ pass: false, message: `GET ${url}: self-signed certificate` });
    expect(await outcome('http', { name: 's', url, tlsConfig: { insecureSkipVerify: true } })).toMatchObject({ pass: true, data: { json: { secure: true } } });
    const trusted = await outcome('http', { name: 's', url: `https://localhost:${year}/`, tlsConfig: { ca: { value: longLived.cert } } });
    expect(trusted).toMatchObject({ pass: true });
    expect(trusted.message).toMatch(/^200 in \d+ ms, certificate valid for 36\d more days$/);
    expect(trusted.details?.certificate).toMatchObject({ subject: 'CN=localhost, O=Watchkeeper tests', issuer: 'CN=localhost, O=Watchkeeper tests', dnsNames: ['localhost', '127.0.0.1'] });
  });

  it('exposes sslAge as a duration and fails maxSSLExpiry when the certificate expires sooner', async () => {
    const skip = { insecureSkipVerify: true };
    expect(await result('http', { name: 'a', url: `https://127.0.0.1:${year}/`, tlsConfig: skip, test: { expr: "sslAge > Duration('300d') && sslAge < Duration('366d')" } })).toMatchObject({ pass: true });
    expect(await outcome('http', { name: 'a', url: `https://127.0.0.1:${year}/`, tlsConfig: skip, maxSSLExpiry: 30 })).toMatchObject({ pass: true });
    const expiring = await outcome('http', { name: 'a', url: `https://127.0.0.1:${soon}/`, tlsConfig: skip, maxSSLExpiry: 30 });
    expect(expiring.pass).toBe(false);
    expect(expiring.message).toMatch(/^the certificate expires in (23h|1d)\S* \(.+\), sooner than maxSSLExpiry of 30 days$/);
    expect(await result('http', { name: 'a', url: `https://127.0.0.1:${soon}/`, tlsConfig: skip, test: { expr: "sslAge < Duration('2d')" }, display: { expr: "'left: ' + string(sslAge.getHours()) + 'h'" } })).toMatchObject({
      pass: true,
      message: expect.stringMatching(/^left: 2[34]h$/),
    });
  });

  it('presents a client certificate from tlsConfig.cert and tlsConfig.key', async () => {
    const url = `https://localhost:${mutual}/`;
    const without = await outcome('http', { name: 'm', url, tlsConfig: { ca: longLived.cert } });
    expect(without.pass).toBe(false);
    const withCert = await outcome('http', { name: 'm', url, tlsConfig: { ca: longLived.cert, cert: { value: client.cert }, key: { value: client.key } } });
    expect(withCert).toMatchObject({ pass: true, data: { json: { client: 'test-client' } } });
  });

  it('gives up a handshake that takes longer than tlsConfig.handshakeTimeout', async () => {
    const silent = net.createServer(() => undefined);
    const port = await listen(silent);
    try {
      const started = Date.now();
      const ran = await outcome('http', { name: 'h', url: `https://127.0.0.1:${port}/`, tlsConfig: { handshakeTimeout: '300ms' } });
      expect(ran).toMatchObject({ pass: false, message: `GET https://127.0.0.1:${port}/: the TLS handshake took longer than 300 ms` });
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      silent.close();
    }
    expect(validate('http', { name: 'h', url: 'https://example.com', tlsConfig: { handshakeTimeout: 'soon', verify: false } }).errors).toEqual([
      'spec.http[0].tlsConfig.handshakeTimeout: "soon" is not a duration (e.g. 30s, 15m, 2h, 7d)',
      'spec.http[0].tlsConfig: Unrecognized key: "verify"',
    ]);
  });
});

describe('tls', () => {
  it('validates the endpoint', () => {
    expect(validate('tls', { name: 't', endpoint: 'https://example.com/' }).errors).toEqual(['spec.tls[0].endpoint: must be host:port, e.g. example.com:443']);
    expect(validate('tls', { name: 't' }).errors).toEqual(['spec.tls[0].endpoint: is required']);
    expect(validate('tls', { name: 't', endpoint: 'example.com' })).toMatchObject({ errors: [], endpoint: 'example.com' });
  });

  it('passes a trusted certificate that lives long enough, with its details as variables', async () => {
    const ran = await outcome('tls', { name: 't', endpoint: `localhost:${year}`, ca: { value: longLived.cert }, maxSSLExpiry: 30 });
    expect(ran).toMatchObject({
      pass: true,
      data: { subject: 'CN=localhost, O=Watchkeeper tests', issuer: 'CN=localhost, O=Watchkeeper tests', dnsNames: ['localhost', '127.0.0.1'], authorized: true, authorizationError: '', protocol: 'TLSv1.3' },
    });
    expect(ran.data.daysLeft).toBeGreaterThanOrEqual(363);
    expect(Date.parse(String(ran.data.notAfter))).toBeGreaterThan(Date.now() + 363 * 86_400_000);
    expect(ran.message).toMatch(/^the certificate is valid for 36\d more days \(until .+\)$/);
    expect(await result('tls', { name: 't', endpoint: `127.0.0.1:${year}`, insecureSkipVerify: true, test: { expr: "daysLeft > 300 && sslAge > Duration('300d') && subject.contains('localhost')" } })).toMatchObject({ pass: true });
  });

  it('fails a certificate that expires sooner than maxSSLExpiry', async () => {
    const ran = await outcome('tls', { name: 't', endpoint: `127.0.0.1:${soon}`, insecureSkipVerify: true, maxSSLExpiry: 7 });
    expect(ran).toMatchObject({ pass: false, data: { daysLeft: 0 } });
    expect(ran.message).toMatch(/^the certificate expires in .+, sooner than maxSSLExpiry of 7 days$/);
    expect(await outcome('tls', { name: 't', endpoint: `127.0.0.1:${soon}`, insecureSkipVerify: true })).toMatchObject({ pass: true });
  });

  it('fails an untrusted certificate or one for another name, unless insecureSkipVerify', async () => {
    expect(await outcome('tls', { name: 't', endpoint: `127.0.0.1:${year}` })).toMatchObject({ pass: false, message: 'the certificate is not trusted: self-signed certificate', data: { authorized: false } });
    const otherName = await outcome('tls', { name: 't', endpoint: `127.0.0.1:${year}`, ca: longLived.cert, serverName: 'api.example.com' });
    expect(otherName.pass).toBe(false);
    expect(otherName.message).toContain("the certificate does not match the name: Hostname/IP does not match certificate's altnames");
    expect(await outcome('tls', { name: 't', endpoint: `127.0.0.1:${year}`, serverName: 'api.example.com', insecureSkipVerify: true })).toMatchObject({ pass: true });
  });

  it('fails when no TLS server answers', async () => {
    const port = await closedPort();
    expect(await outcome('tls', { name: 't', endpoint: `127.0.0.1:${port}` })).toMatchObject({ pass: false, message: expect.stringContaining(`no TLS handshake with 127.0.0.1:${port}: connect ECONNREFUSED`) });
  });
});
