import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { createTestApp, type TestApp } from '../../../../test/app';
import { freePort } from '../../../platform/db/embedded';
import { processKeyring } from '../../../platform/secrets';
import { listenApp, type Listening } from '../../../platform/tls';

/**
 * Issue 24: GET /api/kubeconfig and the Kubernetes-style API, driven by the real kubectl binary
 * (Debian's kubernetes-client, installed by .ci/run when missing) against the app listening on loopback.
 */

function findKubectl(): string | undefined {
  const which = spawnSync('sh', ['-c', 'command -v kubectl'], { encoding: 'utf8' });
  const found = which.stdout.trim();
  if (which.status === 0 && found) return found;
  return fs.existsSync('/usr/bin/kubectl') ? '/usr/bin/kubectl' : undefined;
}
const KUBECTL = findKubectl();

let t: TestApp;
let base = '';
let dir = '';
let adminConfig = '';
let viewerConfig = '';
let viewerToken = '';
let adminToken = '';

/**
 * kubectl sends a token only over https: the app listens as `serve` does (http and https on one port, the
 * console's own CA in its data directory), and kubectl uses the downloaded kubeconfig as it is.
 */
let listening: Listening | undefined;
let dataDir = '';

async function kubeconfigFor(headers: Record<string, string>, file: string): Promise<{ token: string; text: string }> {
  const res = await t.app.inject({ method: 'GET', url: '/api/kubeconfig', headers });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-disposition']).toBe('attachment; filename="localhost-kubeconfig.yaml"');
  const config = parseYaml(res.body) as { clusters: Array<{ cluster: Record<string, unknown> }>; users: Array<{ user: { token: string } }>; 'current-context': string };
  // The public URL is http://localhost:<port>; the same port answers https, so the file points kubectl there with the CA.
  expect(config.clusters[0]?.cluster.server).toBe(`${t.context.config.publicUrl.replace(/^http:/, 'https:')}/api/kubernetes`);
  expect(config.clusters[0]?.cluster['certificate-authority-data']).toBe(Buffer.from(fs.readFileSync(path.join(dataDir, 'tls', 'ca.crt'))).toString('base64'));
  expect(res.body).not.toContain('kubectl sends the token only over https');
  expect(config['current-context']).toBe('watchkeeper');
  // The file as downloaded, unchanged.
  fs.writeFileSync(file, res.body);
  return { token: config.users[0]!.user.token, text: res.body };
}

/**
 * Runs kubectl without blocking: the server answering it lives in this same process, so spawnSync would
 * stall it (every request timing out).
 */
function kubectl(config: string, args: string[], input?: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(KUBECTL ?? 'kubectl', ['--request-timeout=10s', ...args], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, KUBECONFIG: config, KUBECACHEDIR: path.join(dir, 'cache') },
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    if (input !== undefined) child.stdin?.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

function canaryYaml(name: string, port: number, labels = 'team: ops'): string {
  return `apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata:
  name: ${name}
  namespace: shop
  labels: {${labels}}
spec:
  schedule: "@every 5m"
  tcp:
    - name: db
      endpoint: 127.0.0.1:${port}
`;
}

beforeAll(async () => {
  const port = await freePort();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kube-test-data-'));
  t = await createTestApp({ env: { PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: `http://localhost:${port}`, WATCHKEEPER_DATA: dataDir } });
  listening = await listenApp(t.app, t.context.config, t.context.log);
  base = `http://127.0.0.1:${listening.port}`;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kube-test-'));
  adminConfig = path.join(dir, 'admin.kubeconfig');
  viewerConfig = path.join(dir, 'viewer.kubeconfig');
  adminToken = (await kubeconfigFor(t.adminHeaders, adminConfig)).token;
  const viewer = await t.userWith(['viewer']);
  viewerToken = (await kubeconfigFor(viewer.headers, viewerConfig)).token;
}, 60_000);

afterAll(async () => {
  await listening?.close();
  await t?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('GET /api/kubeconfig', () => {
  it('makes a token named kubeconfig-<date> for the caller, with what the caller may do', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/tokens', headers: t.adminHeaders });
    const body = res.json() as { payload?: Array<{ name: string }> } | Array<{ name: string }>;
    const list = Array.isArray(body) ? body : (body.payload ?? []);
    expect(list.some((token) => token.name === `kubeconfig-${new Date().toISOString().slice(0, 10)}`)).toBe(true);
    expect(adminToken).not.toBe(viewerToken);
  });

  it('refuses an anonymous caller and a caller signed in with an API token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/kubeconfig' })).statusCode).toBe(401);
    const res = await t.app.inject({ method: 'GET', url: '/api/kubeconfig', headers: { authorization: `Bearer ${adminToken}` } });
    expect(res.statusCode).toBe(403);
  });
});

describe('the Kubernetes API over HTTP', () => {
  const get = (url: string, token = adminToken, accept?: string) =>
    fetch(`${base}/api/kubernetes${url}`, { headers: { authorization: `Bearer ${token}`, ...(accept ? { accept } : {}) } });

  it('answers discovery: /api, /apis with the three groups, a group version with plural, kind and verbs', async () => {
    expect(await (await get('/api')).json()).toMatchObject({ kind: 'APIVersions', versions: ['v1'] });
    const groups = (await (await get('/apis')).json()) as { kind: string; groups: Array<{ name: string; preferredVersion: { groupVersion: string } }> };
    expect(groups.kind).toBe('APIGroupList');
    expect(groups.groups.map((group) => group.preferredVersion.groupVersion).sort()).toEqual(['canaries.flanksource.com/v1', 'configs.flanksource.com/v1', 'mission-control.flanksource.com/v1']);
    const resources = (await (await get('/apis/canaries.flanksource.com/v1')).json()) as { resources: Array<Record<string, unknown>> };
    expect(resources.resources).toContainEqual(expect.objectContaining({ name: 'canaries', singularName: 'canary', kind: 'Canary', namespaced: true, verbs: expect.arrayContaining(['get', 'list', 'create', 'update', 'patch', 'delete']) }));
  });

  it('answers an unknown resource, an anonymous caller and a bad label selector with the Status shape', async () => {
    const unknown = await get('/apis/canaries.flanksource.com/v1/namespaces/default/widgets');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404 });
    const missing = await get('/apis/canaries.flanksource.com/v1/namespaces/default/canaries/nope');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ kind: 'Status', reason: 'NotFound', message: 'canaries.canaries.flanksource.com "nope" not found' });
    const anonymous = await fetch(`${base}/api/kubernetes/apis`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
    const bad = await get('/apis/canaries.flanksource.com/v1/canaries?labelSelector=a%20in%20(');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ kind: 'Status', reason: 'BadRequest', message: expect.stringContaining('labelSelector') });
  });

  it('refuses a spec with a problem as Invalid (422) naming the field, nothing saved', async () => {
    const res = await fetch(`${base}/api/kubernetes/apis/canaries.flanksource.com/v1/namespaces/shop/canaries`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'canaries.flanksource.com/v1', kind: 'Canary', metadata: { name: 'broken' }, spec: { schedule: 'every minute', tcp: [{ endpoint: 'nowhere' }] } }),
    });
    expect(res.status).toBe(422);
    const status = (await res.json()) as { reason: string; message: string; details: { causes: Array<{ field: string }> } };
    expect(status.reason).toBe('Invalid');
    expect(status.details.causes.map((cause) => cause.field).join(' ')).toContain('spec.');
    expect((await get('/apis/canaries.flanksource.com/v1/namespaces/shop/canaries/broken')).status).toBe(404);
  });

  it('applies a JSON patch (application/json-patch+json)', async () => {
    const create = await fetch(`${base}/api/kubernetes/apis/canaries.flanksource.com/v1/namespaces/shop/canaries`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/yaml' },
      body: canaryYaml('patched', 1),
    });
    expect(create.status, await create.clone().text()).toBe(201);
    const res = await fetch(`${base}/api/kubernetes/apis/canaries.flanksource.com/v1/namespaces/shop/canaries/patched`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json-patch+json' },
      body: JSON.stringify([{ op: 'replace', path: '/spec/tcp/0/endpoint', value: '127.0.0.1:2' }, { op: 'add', path: '/metadata/labels/tier', value: 'gold' }]),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const object = (await res.json()) as { metadata: { labels: Record<string, string> }; spec: { tcp: Array<{ endpoint: string }> } };
    expect(object.spec.tcp[0]?.endpoint).toBe('127.0.0.1:2');
    expect(object.metadata.labels).toEqual({ team: 'ops', tier: 'gold' });
    const wrong = await fetch(`${base}/api/kubernetes/apis/canaries.flanksource.com/v1/namespaces/shop/canaries/patched`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json-patch+json' },
      body: JSON.stringify([{ op: 'remove', path: '/spec/nothing' }]),
    });
    expect(wrong.status).toBe(422);
    expect(await wrong.json()).toMatchObject({ kind: 'Status', reason: 'Invalid', message: expect.stringContaining('/spec/nothing does not exist') });
  });
});

describe.skipIf(!KUBECTL)(`kubectl (${KUBECTL ?? 'not installed: these tests need kubectl'})`, () => {
  it('lists the API resources with their short names', async () => {
    const res = await kubectl(adminConfig, ['api-resources']);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/canaries\s+canaries\.flanksource\.com\/v1\s+true\s+Canary/);
    expect(res.stdout).toMatch(/scrapeconfigs\s+scrapers\s+configs\.flanksource\.com\/v1\s+true\s+ScrapeConfig/);
    expect(res.stdout).toMatch(/playbooks\s+pb\s+mission-control\.flanksource\.com\/v1\s+true\s+Playbook/);
  });

  it('applies a canary file (create, then changed), gets it as yaml, lists it in a table, patches and deletes it', async () => {
    const file = path.join(dir, 'canary.yaml');
    fs.writeFileSync(file, canaryYaml('checkout', 5432));
    let res = await kubectl(adminConfig, ['apply', '-f', file]);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toContain('canary.canaries.flanksource.com/checkout created');

    fs.writeFileSync(file, canaryYaml('checkout', 6543, 'team: payments'));
    res = await kubectl(adminConfig, ['apply', '-f', file]);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toContain('canary.canaries.flanksource.com/checkout configured');

    res = await kubectl(adminConfig, ['get', 'canary', 'checkout', '-n', 'shop', '-o', 'yaml']);
    expect(res.status, res.stderr).toBe(0);
    const object = parseYaml(res.stdout) as { kind: string; metadata: { name: string; namespace: string; uid: string; resourceVersion: string; labels: Record<string, string> }; spec: { tcp: Array<{ endpoint: string }> } };
    expect(object.kind).toBe('Canary');
    expect(object.metadata).toMatchObject({ name: 'checkout', namespace: 'shop', labels: { team: 'payments' } });
    expect(object.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(object.metadata.resourceVersion).toMatch(/^\d+$/);
    expect(object.spec.tcp[0]?.endpoint).toBe('127.0.0.1:6543');

    res = await kubectl(adminConfig, ['get', 'canaries', '-A']);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/NAMESPACE\s+NAME\s+STATUS\s+CHECKS\s+LAST RUN\s+AGE/);
    expect(res.stdout).toMatch(/shop\s+checkout\s+Pending\s+0\/1\s+<never>\s+\d+s/);

    res = await kubectl(adminConfig, ['get', 'canaries', '-n', 'shop', '-l', 'team=payments', '-o', 'wide']);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/checkout\s+Pending.*team=payments/);
    res = await kubectl(adminConfig, ['get', 'canaries', '-n', 'shop', '-l', 'team=nobody', '-o', 'name']);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout.trim()).toBe('');

    res = await kubectl(adminConfig, ['patch', 'canary', 'checkout', '-n', 'shop', '--type', 'merge', '-p', '{"spec":{"schedule":"@every 10m"}}']);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toContain('canary.canaries.flanksource.com/checkout patched');
    res = await kubectl(adminConfig, ['get', 'canary', 'checkout', '-n', 'shop', '-o', 'jsonpath={.spec.schedule}']);
    expect(res.stdout).toBe('@every 10m');

    res = await kubectl(adminConfig, ['get', 'namespaces']);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/shop\s+Active/);

    res = await kubectl(adminConfig, ['delete', 'canary', 'checkout', '-n', 'shop']);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toContain('canary.canaries.flanksource.com "checkout" deleted');
    res = await kubectl(adminConfig, ['get', 'canary', 'checkout', '-n', 'shop']);
    expect(res.status).not.toBe(0);
    expect(res.stderr).toContain('canaries.canaries.flanksource.com "checkout" not found');
  });

  it("refuses a viewer's apply as Forbidden, with the Status shape, and lets the viewer read", async () => {
    const file = path.join(dir, 'viewer-canary.yaml');
    fs.writeFileSync(file, canaryYaml('from-viewer', 7000));
    const res = await kubectl(viewerConfig, ['apply', '-f', file]);
    expect(res.status).not.toBe(0);
    expect(res.stderr).toMatch(/forbidden/i);
    const direct = await fetch(`${base}/api/kubernetes/apis/canaries.flanksource.com/v1/namespaces/shop/canaries`, {
      method: 'POST',
      headers: { authorization: `Bearer ${viewerToken}`, 'content-type': 'application/yaml' },
      body: canaryYaml('from-viewer', 7000),
    });
    expect(direct.status).toBe(403);
    expect(await direct.json()).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Forbidden', code: 403 });
    const read = await kubectl(viewerConfig, ['get', 'canaries', '-A']);
    expect(read.status, read.stderr).toBe(0);
  });

  it("applies the project's examples (teams, connections, secrets, silences, playbooks, scrape configs, views, topology), and lists them by short name", async () => {
    const repo = path.resolve(__dirname, '../../../..');
    // The playbook examples also hold Teams, Connections and Secrets; the notification examples a silence.
    for (const folder of ['examples/team.yaml', 'examples/connections', 'examples/playbooks', 'examples/notifications', 'examples/catalog/scrapers', 'examples/views', 'examples/topology', 'examples/applications', 'examples/incidents/rules.yaml']) {
      const res = await kubectl(adminConfig, ['apply', '-f', path.join(repo, folder)]);
      expect(res.status, `${folder}: ${res.stderr}`).toBe(0);
      expect(res.stdout).toMatch(/ created/);
    }
    let res = await kubectl(adminConfig, ['get', 'teams,conn,secrets,silence', '-A', '-o', 'name']);
    expect(res.status, res.stderr).toBe(0);
    for (const name of ['team.mission-control.flanksource.com/sre', 'connection.mission-control.flanksource.com/local-postgres', 'secret/local-postgres', 'notificationsilence.mission-control.flanksource.com/nightly-jobs']) expect(res.stdout).toContain(name);
    res = await kubectl(adminConfig, ['get', 'pb', '-o', 'name']);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toContain('playbook.mission-control.flanksource.com/health-poke');
    res = await kubectl(adminConfig, ['get', 'scrapers', '-A', '-o', 'name']);
    expect(res.stdout.trim().split('\n').length).toBe(fs.readdirSync(path.join(repo, 'examples/catalog/scrapers')).length);
    res = await kubectl(adminConfig, ['get', 'views,topologies', '-A']);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/view\.mission-control\.flanksource\.com\/pods/);
    res = await kubectl(adminConfig, ['get', 'app,ir', '-A', '-o', 'name']);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toContain('application.mission-control.flanksource.com/payments');
    expect(res.stdout).toMatch(/incidentrule\.mission-control\.flanksource\.com\//);
    res = await kubectl(adminConfig, ['delete', 'view', 'pods']);
    expect(res.status, res.stderr).toBe(0);
    expect((await kubectl(adminConfig, ['get', 'view', 'pods'])).stderr).toContain('not found');
  });

  it('refuses create of an existing name (AlreadyExists) and a replace from a stale resourceVersion (Conflict)', async () => {
    const file = path.join(dir, 'twice.yaml');
    fs.writeFileSync(file, canaryYaml('twice', 1));
    let res = await kubectl(adminConfig, ['create', '-f', file]);
    expect(res.status, res.stderr).toBe(0);
    res = await kubectl(adminConfig, ['create', '-f', file]);
    expect(res.status).not.toBe(0);
    expect(res.stderr).toContain('Error from server (AlreadyExists): error when creating');
    res = await kubectl(adminConfig, ['get', 'canary', 'twice', '-n', 'shop', '-o', 'json']);
    const object = JSON.parse(res.stdout) as { metadata: { resourceVersion: string } };
    fs.writeFileSync(file, canaryYaml('twice', 2).replace('namespace: shop', `namespace: shop\n  resourceVersion: "${object.metadata.resourceVersion}"`));
    res = await kubectl(adminConfig, ['replace', '-f', file]);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toContain('canary.canaries.flanksource.com/twice replaced');
    res = await kubectl(adminConfig, ['replace', '-f', file]); // the same, now stale, resourceVersion
    expect(res.status).not.toBe(0);
    expect(res.stderr).toContain('the object has been modified');
  });

  it('runs every check of a server-side dry run and writes nothing (apply and delete)', async () => {
    const file = path.join(dir, 'dry.yaml');
    fs.writeFileSync(file, canaryYaml('dry', 1));
    let res = await kubectl(adminConfig, ['apply', '--dry-run=server', '-f', file]);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toContain('canary.canaries.flanksource.com/dry created (server dry run)');
    expect((await kubectl(adminConfig, ['get', 'canary', 'dry', '-n', 'shop'])).stderr).toContain('not found');
    fs.writeFileSync(file, canaryYaml('dry', 1).replace('@every 5m', 'every minute'));
    res = await kubectl(adminConfig, ['apply', '--dry-run=server', '-f', file]);
    expect(res.status).not.toBe(0);
    expect(res.stderr).toContain('spec.schedule');
    fs.writeFileSync(file, canaryYaml('dry', 1));
    expect((await kubectl(adminConfig, ['apply', '-f', file])).status).toBe(0);
    res = await kubectl(adminConfig, ['delete', '--dry-run=server', 'canary', 'dry', '-n', 'shop']);
    expect(res.status, res.stderr).toBe(0);
    expect((await kubectl(adminConfig, ['get', 'canary', 'dry', '-n', 'shop', '-o', 'name'])).stdout.trim()).toBe('canary.canaries.flanksource.com/dry');
  });

  it('watches (kubectl get -w): a canary created while watching shows up', async () => {
    const watching = kubectl(adminConfig, ['get', 'canaries', '-n', 'watch', '-w', '--request-timeout=6s']);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const created = await fetch(`${base}/api/kubernetes/apis/canaries.flanksource.com/v1/namespaces/watch/canaries`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/yaml' },
      body: canaryYaml('watched', 1).replace('namespace: shop', 'namespace: watch'),
    });
    expect(created.status).toBe(201);
    const res = await watching;
    expect(res.stdout, `${res.status} ${res.stderr}`).toMatch(/watched\s+Pending/);
  });

  it('answers an unknown resource type as kubectl expects', async () => {
    const res = await kubectl(adminConfig, ['get', 'widgets']);
    expect(res.status).not.toBe(0);
    expect(res.stderr).toContain('the server doesn\'t have a resource type "widgets"');
  });
});

describe.skipIf(!KUBECTL)('kubectl: every stored kind, the last-applied annotation, server-side apply (issue 24)', () => {
  /** The clear values of a stored Secret (encrypted at rest): what kubectl must never be answered. */
  const storedSecret = async (namespace: string, name: string) => {
    const { rows } = await t.context.pool.query<{ data: Record<string, string> }>("SELECT data FROM secrets WHERE kind = 'Secret' AND namespace = $1 AND name = $2 AND deleted_at IS NULL", [namespace, name]);
    const keyring = processKeyring();
    return Object.fromEntries(Object.entries(rows[0]?.data ?? {}).map(([key, value]) => [key, keyring.decrypt(value)]));
  };

  it('lists the new kinds in api-resources: core secrets and configmaps, mission-control teams (cluster-scoped), permissions, connections, silences', async () => {
    const res = await kubectl(adminConfig, ['api-resources']);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/^secrets\s+v1\s+true\s+Secret$/m);
    expect(res.stdout).toMatch(/^configmaps\s+cm\s+v1\s+true\s+ConfigMap$/m);
    expect(res.stdout).toMatch(/^teams\s+mission-control\.flanksource\.com\/v1\s+false\s+Team$/m);
    for (const kind of ['Permission', 'PermissionGroup', 'Scope', 'Plugin', 'Connection', 'NotificationSilence']) expect(res.stdout).toMatch(new RegExp(`mission-control\\.flanksource\\.com/v1\\s+true\\s+${kind}$`, 'm'));
  });

  it('applies a Secret made by kubectl create secret, never answers its values, keeps them across a label patch and a second apply', async () => {
    let made = await kubectl(adminConfig, ['create', 'secret', 'generic', 'db', '-n', 'shop', '--from-literal=password=s3cret-value', '--dry-run=client', '-o', 'yaml']);
    expect(made.status, made.stderr).toBe(0);
    let res = await kubectl(adminConfig, ['apply', '-f', '-'], made.stdout);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toContain('secret/db created');
    expect(await storedSecret('shop', 'db')).toEqual({ password: 's3cret-value' });

    res = await kubectl(adminConfig, ['get', 'secret', 'db', '-n', 'shop', '-o', 'yaml']);
    expect(res.status, res.stderr).toBe(0);
    const base64 = Buffer.from('s3cret-value').toString('base64');
    expect(res.stdout).not.toContain('s3cret-value');
    expect(res.stdout).not.toContain(base64);
    const object = parseYaml(res.stdout) as { apiVersion: string; kind: string; data: Record<string, string>; metadata: { annotations: Record<string, string> } };
    expect(object).toMatchObject({ apiVersion: 'v1', kind: 'Secret', data: { password: '' } });
    expect(object.metadata.annotations['watchkeeper.dev/values']).toMatch(/write-only/);
    expect(object.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']).toContain('"password":""');

    res = await kubectl(adminConfig, ['label', 'secret', 'db', '-n', 'shop', 'tier=gold']);
    expect(res.status, res.stderr).toBe(0);
    expect(await storedSecret('shop', 'db')).toEqual({ password: 's3cret-value' });

    made = await kubectl(adminConfig, ['create', 'secret', 'generic', 'db', '-n', 'shop', '--from-literal=password=s3cret-value', '--from-literal=user=app', '--dry-run=client', '-o', 'yaml']);
    res = await kubectl(adminConfig, ['apply', '-f', '-'], made.stdout);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stderr).toBe('');
    expect(res.stdout).toContain('secret/db configured');
    expect(await storedSecret('shop', 'db')).toEqual({ password: 's3cret-value', user: 'app' });

    res = await kubectl(adminConfig, ['get', 'secrets', '-n', 'shop']);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/NAME\s+TYPE\s+DATA\s+AGE/);
    expect(res.stdout).toMatch(/db\s+Opaque\s+2\s+\d+s/);
    res = await kubectl(adminConfig, ['get', 'secrets', '-n', 'shop', '-o', 'json']);
    expect(res.stdout).not.toContain(base64);

    res = await kubectl(adminConfig, ['delete', 'secret', 'db', '-n', 'shop']);
    expect(res.status, res.stderr).toBe(0);
    // (kubectl names the namespace instead when nothing else is left in it.)
    expect((await kubectl(adminConfig, ['get', 'secret', 'db', '-n', 'shop'])).stderr).toMatch(/secrets "db" not found|namespaces "shop" not found/);
    const gone = await fetch(`${base}/api/kubernetes/api/v1/namespaces/shop/secrets/db`, { headers: { authorization: `Bearer ${adminToken}` } });
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({ kind: 'Status', reason: 'NotFound', message: 'secrets "db" not found' });
    const { rows } = await t.context.pool.query('SELECT 1 FROM kube_annotations a JOIN secrets s ON s.id = a.resource_id WHERE s.name = $1', ['db']);
    expect(rows).toEqual([]);
  });

  it('applies, reads, lists and deletes a ConfigMap', async () => {
    const made = await kubectl(adminConfig, ['create', 'configmap', 'app', '-n', 'shop', '--from-literal=mode=fast', '--dry-run=client', '-o', 'yaml']);
    let res = await kubectl(adminConfig, ['apply', '-f', '-'], made.stdout);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toContain('configmap/app created');
    res = await kubectl(adminConfig, ['get', 'cm', 'app', '-n', 'shop', '-o', 'jsonpath={.data.mode}']);
    expect(res.stdout).toBe('fast');
    res = await kubectl(adminConfig, ['get', 'configmaps', '-n', 'shop']);
    expect(res.stdout).toMatch(/app\s+1\s+\d+s/);
    res = await kubectl(adminConfig, ['delete', 'cm', 'app', '-n', 'shop']);
    expect(res.status, res.stderr).toBe(0);
  });

  it('applies a Team, a PermissionGroup, a Permission, a Connection and a NotificationSilence; lists them with their columns; deletes them', async () => {
    const file = path.join(dir, 'mission-control.yaml');
    fs.writeFileSync(
      file,
      `apiVersion: mission-control.flanksource.com/v1
kind: Team
metadata: {name: platform}
spec:
  members: [test-admin@example.com]
---
apiVersion: mission-control.flanksource.com/v1
kind: PermissionGroup
metadata: {name: oncall, namespace: shop}
spec:
  teams: [platform]
---
apiVersion: mission-control.flanksource.com/v1
kind: Permission
metadata: {name: platform-runs, namespace: shop}
spec:
  subject: {team: platform}
  actions: [playbook:run]
  object: {playbooks: [{name: '*'}]}
---
apiVersion: mission-control.flanksource.com/v1
kind: Connection
metadata: {name: orders-db, namespace: shop}
spec:
  postgres:
    url: postgres://db.shop:5432/orders
    username: app
    password: hunter2-secret
---
apiVersion: mission-control.flanksource.com/v1
kind: NotificationSilence
metadata: {name: maintenance, namespace: shop}
spec:
  description: planned maintenance
  from: "2026-01-01T00:00:00Z"
  until: "2099-01-01T00:00:00Z"
  filter: check.name == "orders"
`,
    );
    let res = await kubectl(adminConfig, ['apply', '-f', file]);
    expect(res.status, res.stderr).toBe(0);
    for (const made of ['team.mission-control.flanksource.com/platform', 'permissiongroup.mission-control.flanksource.com/oncall', 'permission.mission-control.flanksource.com/platform-runs', 'connection.mission-control.flanksource.com/orders-db', 'notificationsilence.mission-control.flanksource.com/maintenance']) {
      expect(res.stdout).toContain(`${made} created`);
    }

    res = await kubectl(adminConfig, ['get', 'teams']);
    expect(res.stdout).toMatch(/NAME\s+MEMBERS\s+AGE/);
    expect(res.stdout).toMatch(/platform\s+1\s+\d+s/);
    res = await kubectl(adminConfig, ['get', 'permissions', '-n', 'shop']);
    expect(res.stdout).toMatch(/NAME\s+SUBJECT\s+OBJECT\s+ACTION\s+DENY\s+AGE/);
    expect(res.stdout).toMatch(/platform-runs\s+team:platform\s+playbooks\s+playbook:run\s+false/);
    res = await kubectl(adminConfig, ['get', 'connections', '-n', 'shop']);
    expect(res.stdout).toMatch(/orders-db\s+postgres\s+\d+s/);
    res = await kubectl(adminConfig, ['get', 'notificationsilences', '-n', 'shop']);
    expect(res.stdout).toMatch(/NAME\s+FROM\s+UNTIL\s+ACTIVE\s+AGE/);
    expect(res.stdout).toMatch(/maintenance\s+2026-01-01T00:00:00Z\s+2099-01-01T00:00:00Z\s+true/);

    res = await kubectl(adminConfig, ['get', 'connection', 'orders-db', '-n', 'shop', '-o', 'yaml']);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).not.toContain('hunter2-secret');
    const connection = parseYaml(res.stdout) as { spec: { postgres: Record<string, string> } };
    expect(connection.spec.postgres).toMatchObject({ url: 'postgres://db.shop:5432/orders', username: 'app', password: '******' });
    res = await kubectl(adminConfig, ['get', 'permission', 'platform-runs', '-n', 'shop', '-o', 'json']);
    expect((JSON.parse(res.stdout) as { spec: unknown }).spec).toEqual({ subject: { team: 'platform' }, actions: ['playbook:run'], object: { playbooks: [{ name: '*' }] }, deny: false });
    res = await kubectl(adminConfig, ['get', 'team', 'platform', '-o', 'jsonpath={.spec.members}']);
    expect(res.stdout).toBe('["test-admin@example.com"]');

    // A second apply of the same file changes nothing and warns of nothing; the stored password is kept.
    res = await kubectl(adminConfig, ['apply', '-f', file]);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stderr).toBe('');
    const { rows } = await t.context.pool.query<{ password: string }>("SELECT password FROM connections WHERE name = 'orders-db' AND deleted_at IS NULL");
    expect(processKeyring().decrypt(rows[0]?.password ?? '')).toBe('hunter2-secret');

    res = await kubectl(adminConfig, ['delete', '-f', file]);
    expect(res.status, res.stderr).toBe(0);
    res = await kubectl(adminConfig, ['get', 'teams,permissions,permissiongroups,connections,notificationsilences', '-A', '-o', 'name']);
    expect(res.stdout).not.toMatch(/\/(platform|oncall|platform-runs|orders-db|maintenance)$/m);
  });

  it('applies a changed canary file twice with no missing-annotation warning, and a label removed from the file is removed', async () => {
    const file = path.join(dir, 'three-way.yaml');
    fs.writeFileSync(file, canaryYaml('three-way', 1, 'team: ops, tier: gold'));
    let res = await kubectl(adminConfig, ['apply', '-f', file]);
    expect(res.status, res.stderr).toBe(0);
    fs.writeFileSync(file, canaryYaml('three-way', 2, 'team: ops'));
    res = await kubectl(adminConfig, ['apply', '-f', file]);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stderr).toBe('');
    expect(res.stdout).toContain('canary.canaries.flanksource.com/three-way configured');
    res = await kubectl(adminConfig, ['get', 'canary', 'three-way', '-n', 'shop', '-o', 'json']);
    const object = JSON.parse(res.stdout) as { metadata: { labels: Record<string, string>; annotations: Record<string, string> }; spec: { tcp: Array<{ endpoint: string }> } };
    expect(object.metadata.labels).toEqual({ team: 'ops' });
    expect(object.spec.tcp[0]?.endpoint).toBe('127.0.0.1:2');
    expect(JSON.parse(object.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'] ?? '{}')).toMatchObject({ kind: 'Canary', metadata: { labels: { team: 'ops' } } });
  });

  it('server-side applies (kubectl apply --server-side): creates when missing, then replaces the fields given', async () => {
    const file = path.join(dir, 'ssa.yaml');
    fs.writeFileSync(file, canaryYaml('server-side', 1));
    let res = await kubectl(adminConfig, ['apply', '--server-side', '-f', file]);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toContain('canary.canaries.flanksource.com/server-side serverside-applied');
    fs.writeFileSync(file, canaryYaml('server-side', 3).replace('@every 5m', '@every 7m'));
    res = await kubectl(adminConfig, ['apply', '--server-side', '-f', file]);
    expect(res.status, res.stderr).toBe(0);
    res = await kubectl(adminConfig, ['get', 'canary', 'server-side', '-n', 'shop', '-o', 'jsonpath={.spec.schedule} {.spec.tcp[0].endpoint}']);
    expect(res.stdout).toBe('@every 7m 127.0.0.1:3');

    // A core kind too: a Secret applied server-side twice keeps write-only values and takes the new key.
    const made = await kubectl(adminConfig, ['create', 'secret', 'generic', 'ssa', '-n', 'shop', '--from-literal=token=t0ken', '--dry-run=client', '-o', 'yaml']);
    res = await kubectl(adminConfig, ['apply', '--server-side', '-f', '-'], made.stdout);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toContain('secret/ssa serverside-applied');
    res = await kubectl(adminConfig, ['apply', '--server-side', '-f', '-'], made.stdout.replace(/data:\n/, `data:\n  extra: ${Buffer.from('more').toString('base64')}\n`));
    expect(res.status, res.stderr).toBe(0);
    res = await kubectl(adminConfig, ['get', 'secret', 'ssa', '-n', 'shop', '-o', 'jsonpath={.data}']);
    expect(JSON.parse(res.stdout)).toEqual({ extra: '', token: '' });
  });

  it('deletes a collection (kubectl delete canaries --all -n NS)', async () => {
    for (const name of ['bulk-a', 'bulk-b']) {
      const res = await kubectl(adminConfig, ['apply', '-f', '-'], canaryYaml(name, 1).replace('namespace: shop', 'namespace: bulk'));
      expect(res.status, res.stderr).toBe(0);
    }
    let res = await kubectl(adminConfig, ['delete', 'canaries', '--all', '-n', 'bulk']);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toContain('"bulk-a" deleted');
    res = await kubectl(adminConfig, ['get', 'canaries', '-n', 'bulk', '-o', 'name']);
    expect(res.stdout.trim()).toBe('');
    const direct = await fetch(`${base}/api/kubernetes/apis/canaries.flanksource.com/v1/namespaces/bulk/canaries?labelSelector=team%3Dops`, { method: 'DELETE', headers: { authorization: `Bearer ${viewerToken}` } });
    expect(direct.status).toBe(403);
  });

  it("refuses to delete what an agent pushes up (one, a collection, kubectl --all) with the console's reason naming the agent", async () => {
    const generated = await t.app.inject({ method: 'POST', url: '/api/agent/generate', headers: t.adminHeaders, payload: { name: 'edge-kube' } });
    expect(generated.statusCode, generated.body).toBe(200);
    const agentToken = generated.json<{ access_token: string }>().access_token;
    let res = await kubectl(adminConfig, ['apply', '-f', '-'], canaryYaml('local', 1).replace('namespace: shop', 'namespace: edge'));
    expect(res.status, res.stderr).toBe(0);
    // The agent's own canary and scraper (made there with kubectl), pushed up as the agent does (upstream_origin false).
    const now = new Date().toISOString();
    const own = { namespace: 'edge', labels: {}, schedule: '@every 5m', source: 'KubernetesCRD', upstream_origin: false, created_at: now, updated_at: now };
    const pushed = await t.app.inject({
      method: 'POST',
      url: '/api/agent/push',
      headers: { authorization: `Bearer ${agentToken}`, 'content-type': 'application/json' },
      payload: {
        agent: { name: 'edge-kube', version: '0.1.0-test', hostname: 'edge-host', heartbeat_seconds: 30 },
        batch_id: randomUUID(),
        upserts: {
          canaries: [{ ...own, id: randomUUID(), name: 'pushed', spec: { tcp: [{ name: 'db', endpoint: '127.0.0.1:1' }] } }],
          config_scrapers: [{ ...own, id: randomUUID(), name: 'pushed-scraper', spec: { file: [{ type: 'File', paths: ['/tmp/none.json'] }] } }],
        },
        deletes: {},
      },
    });
    expect(pushed.statusCode, pushed.body).toBe(200);

    const message = 'canaries.canaries.flanksource.com "pushed": this canary runs on the agent "edge-kube", which pushes it here: delete it on that agent';
    res = await kubectl(adminConfig, ['delete', 'canary', 'pushed', '-n', 'edge']);
    expect(res.status).not.toBe(0);
    expect(res.stderr).toContain(`Error from server (Conflict): ${message}`);
    const one = await fetch(`${base}/api/kubernetes/apis/canaries.flanksource.com/v1/namespaces/edge/canaries/pushed`, { method: 'DELETE', headers: { authorization: `Bearer ${adminToken}` } });
    expect(one.status).toBe(409);
    expect(await one.json()).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Conflict', code: 409, message, details: { name: 'pushed', group: 'canaries.flanksource.com', kind: 'canaries' } });
    res = await kubectl(adminConfig, ['delete', 'scrapeconfig', 'pushed-scraper', '-n', 'edge']);
    expect(res.stderr).toContain('Error from server (Conflict): scrapeconfigs.configs.flanksource.com "pushed-scraper": this scraper runs on the agent "edge-kube", which pushes it here: delete it on that agent');

    // deletecollection checks every object first: the console's canary beside it is not deleted either.
    const collection = await fetch(`${base}/api/kubernetes/apis/canaries.flanksource.com/v1/namespaces/edge/canaries`, { method: 'DELETE', headers: { authorization: `Bearer ${adminToken}` } });
    expect(collection.status).toBe(409);
    expect(await collection.json()).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Conflict', code: 409, message: `${message}; nothing was deleted` });
    res = await kubectl(adminConfig, ['get', 'canaries', '-n', 'edge', '-o', 'name']);
    expect(res.stdout.trim().split('\n').sort()).toEqual(['canary.canaries.flanksource.com/local', 'canary.canaries.flanksource.com/pushed']);

    // kubectl delete --all deletes one object at a time: the console's canary goes, the agent's is refused.
    res = await kubectl(adminConfig, ['delete', 'canaries', '--all', '-n', 'edge']);
    expect(res.status).not.toBe(0);
    expect(res.stdout).toContain('"local" deleted');
    expect(res.stderr).toContain(`Error from server (Conflict): ${message}`);
    res = await kubectl(adminConfig, ['get', 'canaries', '-n', 'edge', '-o', 'name']);
    expect(res.stdout.trim()).toBe('canary.canaries.flanksource.com/pushed');
  });

  it('refuses a viewer on the new kinds with the Status shape (writes, and reading secrets)', async () => {
    const file = path.join(dir, 'viewer-team.yaml');
    fs.writeFileSync(file, 'apiVersion: mission-control.flanksource.com/v1\nkind: Team\nmetadata: {name: viewers-team}\nspec: {}\n');
    let res = await kubectl(viewerConfig, ['apply', '-f', file]);
    expect(res.status).not.toBe(0);
    expect(res.stderr).toMatch(/forbidden/i);
    const direct = await fetch(`${base}/api/kubernetes/api/v1/namespaces/shop/secrets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${viewerToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'nope' }, stringData: { a: 'b' } }),
    });
    expect(direct.status).toBe(403);
    expect(await direct.json()).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Forbidden', code: 403, message: expect.stringContaining('cannot create resource "secrets" in API group ""') });
    res = await kubectl(viewerConfig, ['get', 'secrets', '-A']);
    expect(res.status).not.toBe(0);
    expect(res.stderr).toMatch(/Forbidden/);
    res = await kubectl(viewerConfig, ['get', 'teams']);
    expect(res.status, res.stderr).toBe(0);
  });
});
