// Issue 35, "HTTPS out of the box" and finding 11 (cookies and proxies): the console serves https on its own
// port with a CA it makes in its data directory, the kubeconfig download carries that CA so the stock kubectl
// works with the file alone, cookies are Secure under an https public URL, and X-Forwarded-For is believed
// only from the configured proxies (a forged one from anyone else does not escape sign-in throttling).
import { spawn, spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { createIdentity } from '../../server/features/identity/identities';
import { hashPassword } from '../../server/features/identity/passwords';
import { LIMITS } from '../../server/features/identity/rate-limit';
import { freePort } from '../../server/platform/db/embedded';
import { ensureCertificates, listenApp, type Listening } from '../../server/platform/tls';
import { createTestApp, type TestApp } from '../app';

function findKubectl(): string | undefined {
  const which = spawnSync('sh', ['-c', 'command -v kubectl'], { encoding: 'utf8' });
  const found = which.stdout.trim();
  if (which.status === 0 && found) return found;
  return fs.existsSync('/usr/bin/kubectl') ? '/usr/bin/kubectl' : undefined;
}
const KUBECTL = findKubectl();
if (!KUBECTL) console.warn('tls-and-proxies: kubectl is not installed (Debian package kubernetes-client); the kubectl test is skipped');

/** GET over https, trusting only `ca`; answers status, body and the certificate the server presented. */
function httpsGet(url: string, ca: string | undefined, headers: Record<string, string> = {}): Promise<{ status: number; body: string; headers: Record<string, unknown>; peer: tls.PeerCertificate }> {
  return new Promise((resolve, reject) => {
    const req = https.get(url, { ...(ca ? { ca } : {}), headers, agent: false }, (res) => {
      let body = '';
      const peer = (res.socket as tls.TLSSocket).getPeerCertificate();
      res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers, peer }));
    });
    req.on('error', reject);
  });
}

/** kubectl with only KUBECONFIG set (no flags about servers, tokens or TLS); not blocking (the server is in this process). */
function kubectl(kubeconfig: string, home: string, args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(KUBECTL ?? 'kubectl', args, {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, KUBECONFIG: kubeconfig, KUBECACHEDIR: path.join(home, 'cache') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

describe('HTTPS out of the box', () => {
  let t: TestApp;
  let listening: Listening;
  let dataDir = '';
  let home = '';
  let port = 0;

  beforeAll(async () => {
    port = await freePort();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wk-tls-data-'));
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'wk-tls-home-'));
    // As `serve` with no TLS settings: a fresh data directory, the default (auto) mode.
    t = await createTestApp({ env: { PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: `http://localhost:${port}`, WATCHKEEPER_DATA: dataDir } });
    listening = await listenApp(t.app, t.context.config, t.context.log);
  }, 60_000);

  afterAll(async () => {
    await listening?.close();
    await t?.close();
    for (const dir of [dataDir, home]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('creates a CA in <data dir>/tls on first start (key mode 0600) and serves https and http on the same port', async () => {
    const dir = path.join(dataDir, 'tls');
    expect(fs.statSync(path.join(dir, 'ca.key')).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.join(dir, 'server.key')).mode & 0o777).toBe(0o600);
    const caPem = fs.readFileSync(path.join(dir, 'ca.crt'), 'utf8');
    const ca = new X509Certificate(caPem);
    expect(ca.ca).toBe(true);
    expect(listening.port).toBe(port);
    expect(listening.urls).toEqual([`http://127.0.0.1:${port}`, `https://127.0.0.1:${port}`]);

    // https, verified against that CA only, for each name a person uses on this machine.
    for (const host of ['localhost', '127.0.0.1', os.hostname()]) {
      const answer = await httpsGet(`https://${host}:${port}/health`, caPem);
      expect(answer.status, host).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ status: 'ok' });
    }
    const served = new X509Certificate((await httpsGet(`https://localhost:${port}/health`, caPem)).peer.raw);
    expect(served.verify(ca.publicKey)).toBe(true);
    expect(served.checkIP('::1')).toBe('::1');
    // Not trusted without the CA.
    await expect(httpsGet(`https://localhost:${port}/health`, undefined)).rejects.toThrow(/self[- ]signed|unable to verify|certificate/i);
    // The browser URL of a default install keeps working: plain http on the same port.
    const plain = await fetch(`http://127.0.0.1:${port}/health`);
    expect(plain.status).toBe(200);
  });

  it('keeps the CA across restarts and makes the server certificate again when missing or about to expire', async () => {
    const dir = path.join(dataDir, 'tls');
    const ca = fs.readFileSync(path.join(dir, 'ca.crt'), 'utf8');
    const cert = fs.readFileSync(path.join(dir, 'server.crt'), 'utf8');
    const again = await ensureCertificates(dir, [os.hostname(), '127.0.0.1', 'localhost']);
    expect(again.made).toEqual([]);
    expect(again.caCert).toBe(ca);
    expect(again.cert).toBe(cert);

    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'wk-tls-copy-'));
    try {
      for (const file of ['ca.crt', 'ca.key', 'server.crt', 'server.key']) fs.copyFileSync(path.join(dir, file), path.join(copy, file));
      fs.rmSync(path.join(copy, 'server.crt'));
      expect((await ensureCertificates(copy, [])).made).toEqual(['server']);
      // Twenty days before the server certificate ends, it is made again (the CA, good for years, is kept).
      const soon = new Date(new Date(new X509Certificate(fs.readFileSync(path.join(copy, 'server.crt'))).validTo).getTime() - 20 * 24 * 3600 * 1000);
      const renewed = await ensureCertificates(copy, [], soon);
      expect(renewed.made).toEqual(['server']);
      expect(renewed.caCert).toBe(ca);
      // A new name (PUBLIC_URL changed) is a new certificate naming it.
      const named = await ensureCertificates(copy, ['ops.example.com']);
      expect(named.made).toEqual(['server']);
      expect(new X509Certificate(named.cert).checkHost('ops.example.com')).toBe('ops.example.com');
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });

  it('puts the https URL and the CA into the kubeconfig download', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/kubeconfig', headers: t.adminHeaders });
    expect(res.statusCode, res.body).toBe(200);
    const config = parseYaml(res.body) as { clusters: Array<{ cluster: { server: string; 'certificate-authority-data'?: string } }> };
    const cluster = config.clusters[0]?.cluster;
    expect(cluster?.server).toBe(`https://localhost:${port}/api/kubernetes`);
    const caData = Buffer.from(cluster?.['certificate-authority-data'] ?? '', 'base64').toString('utf8');
    expect(caData).toBe(fs.readFileSync(path.join(dataDir, 'tls', 'ca.crt'), 'utf8'));
    expect(res.body).not.toContain('kubectl sends the token only over https');
  });

  it.skipIf(!KUBECTL)('lets the stock kubectl list canaries with only the downloaded kubeconfig', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/kubeconfig', headers: t.adminHeaders });
    expect(res.statusCode).toBe(200);
    const file = path.join(home, 'downloaded-kubeconfig.yaml');
    fs.writeFileSync(file, res.body);
    const manifest = path.join(home, 'canary.yaml');
    fs.writeFileSync(manifest, 'apiVersion: canaries.flanksource.com/v1\nkind: Canary\nmetadata:\n  name: over-tls\n  namespace: shop\nspec:\n  schedule: "@every 5m"\n  tcp:\n    - name: db\n      endpoint: 127.0.0.1:9\n');
    const applied = await kubectl(file, home, ['apply', '-f', manifest]);
    expect(applied.stderr).toBe('');
    expect(applied.stdout).toContain('canary.canaries.flanksource.com/over-tls created');
    const listed = await kubectl(file, home, ['get', 'canaries', '-A']);
    expect(listed.stderr).toBe('');
    expect(listed.status).toBe(0);
    expect(listed.stdout).toMatch(/^NAMESPACE\s+NAME/);
    expect(listed.stdout).toMatch(/\nshop\s+over-tls\s/);
  }, 60_000);

  it('sets cookies Secure on a request that came over TLS, not on the plain http of the same port', async () => {
    const caPem = fs.readFileSync(path.join(dataDir, 'tls', 'ca.crt'), 'utf8');
    const overTls = await httpsGet(`https://localhost:${port}/api/.ory/self-service/login/browser`, caPem, { accept: 'application/json' });
    const tlsCookies = [overTls.headers['set-cookie']].flat().map(String);
    expect(tlsCookies.some((cookie) => cookie.startsWith('watchkeeper_csrf=') && /;\s*Secure/i.test(cookie))).toBe(true);
    const plain = await fetch(`http://127.0.0.1:${port}/api/.ory/self-service/login/browser`, { headers: { accept: 'application/json' } });
    const plainCookies = plain.headers.getSetCookie();
    expect(plainCookies.some((cookie) => cookie.startsWith('watchkeeper_csrf='))).toBe(true);
    expect(plainCookies.some((cookie) => /;\s*Secure/i.test(cookie))).toBe(false);
  });
});

describe('cookies under an https PUBLIC_URL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: 'https://ops.example.com' } });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('are Secure with no X-Forwarded-Proto (a TLS proxy that does not say so)', async () => {
    const flow = await t.app.inject({ method: 'GET', url: '/api/.ory/self-service/login/browser', headers: { accept: 'application/json' } });
    expect(flow.statusCode, flow.body).toBe(200);
    const cookies = [flow.headers['set-cookie']].flat().map(String);
    const csrf = cookies.find((cookie) => cookie.startsWith('watchkeeper_csrf='));
    expect(csrf).toBeDefined();
    expect(csrf).toMatch(/;\s*Secure/i);
    expect(csrf).toMatch(/;\s*HttpOnly/i);

    // The session cookie of a browser sign-in too.
    const email = `secure-${Date.now()}@example.com`;
    const password = 'correct horse battery staple 42';
    await createIdentity(t.db.pool, { traits: { email, name: { first: 'Sec', last: 'Ure' } }, roles: ['viewer'], verified: true, passwordHash: await hashPassword(password) });
    const body = flow.json() as { id: string; ui: { nodes: Array<{ attributes: { name?: string; value?: unknown } }> } };
    const token = body.ui.nodes.find((node) => node.attributes.name === 'csrf_token')?.attributes.value;
    const csrfCookie = csrf?.split(';')[0] ?? '';
    const submit = await t.app.inject({
      method: 'POST',
      url: `/api/.ory/self-service/login?flow=${body.id}`,
      headers: { accept: 'application/json', 'content-type': 'application/json', cookie: csrfCookie },
      payload: { method: 'password', identifier: email, password, csrf_token: token },
    });
    const session = [submit.headers['set-cookie']].flat().map(String).find((cookie) => cookie.startsWith('watchkeeper_session='));
    expect(session, submit.body).toBeDefined();
    expect(session).toMatch(/;\s*Secure/i);
  });
});

describe('X-Forwarded-* only from trusted proxies', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  async function failedLogin(remoteAddress: string, forwardedFor: string | undefined, identifier: string): Promise<number> {
    const flow = await t.app.inject({ method: 'GET', url: '/api/.ory/self-service/login/api', remoteAddress });
    const { id } = flow.json() as { id: string };
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/.ory/self-service/login?flow=${id}`,
      remoteAddress,
      headers: { 'content-type': 'application/json', ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
      payload: { method: 'password', identifier, password: 'wrong password' },
    });
    return res.statusCode;
  }

  it('a forged X-Forwarded-For from an untrusted peer does not change the address sign-in throttling counts', async () => {
    const attacker = '203.0.113.9';
    const max = LIMITS.loginAddress.max;
    // The attacker's address has failed all but three of its sign-ins in this window (counted as login.ts does) …
    await t.db.pool.query("INSERT INTO auth_rate_limits (key, window_start, hits) VALUES ($1, now(), $2)", [`loginAddress:${attacker}`, max - 3]);
    // … and fails three more, each with a new account name (so the per-identifier limit is not what stops it)
    // and a new forged X-Forwarded-For: still one address, so the next attempt is throttled.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect(await failedLogin(attacker, `198.51.100.${attempt + 1}`, `nobody-${attempt}@example.com`)).toBe(400);
    }
    expect(await failedLogin(attacker, '192.0.2.77', 'nobody-last@example.com')).toBe(429);
    expect(await failedLogin(attacker, undefined, 'nobody-last2@example.com')).toBe(429);
    // Another peer is not throttled by the attacker's failures.
    expect(await failedLogin('203.0.113.10', undefined, 'someone@example.com')).toBe(400);
  }, 120_000);

  it('believes X-Forwarded-For and -Proto from a loopback proxy by default, and from nobody with TRUSTED_PROXIES=none', async () => {
    const probe = async (app: TestApp, remoteAddress: string) => {
      const res = await app.app.inject({ method: 'GET', url: '/api/.ory/self-service/login/browser', remoteAddress, headers: { accept: 'application/json', 'x-forwarded-for': '198.51.100.200', 'x-forwarded-proto': 'https' } });
      return [res.headers['set-cookie']].flat().map(String).some((cookie) => /;\s*Secure/i.test(cookie));
    };
    expect(await probe(t, '127.0.0.1')).toBe(true);
    expect(await probe(t, '203.0.113.9')).toBe(false);
    const none = await createTestApp({ env: { TRUSTED_PROXIES: 'none' } });
    try {
      expect(await probe(none, '127.0.0.1')).toBe(false);
    } finally {
      await none.close();
    }
    const listed = await createTestApp({ env: { TRUSTED_PROXIES: '10.0.0.0/8, 203.0.113.9' } });
    try {
      expect(await probe(listed, '203.0.113.9')).toBe(true);
      expect(await probe(listed, '10.1.2.3')).toBe(true);
      expect(await probe(listed, '127.0.0.1')).toBe(false);
    } finally {
      await listed.close();
    }
  });
});
