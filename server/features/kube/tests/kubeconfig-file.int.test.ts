import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';

/**
 * Issue 38: the kubeconfig modal names the file the download is saved as. The name comes from the
 * server's public URL, which need not be the host the browser uses (127.0.0.1 against localhost).
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: 'https://ops.example.com:8443/console' } });
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/kubeconfig/file', () => {
  it('answers the name of the file GET /api/kubeconfig sends', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/kubeconfig/file', headers: { ...t.adminHeaders, host: '127.0.0.1:8080' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ file: 'ops.example.com-kubeconfig.yaml' });
    const download = await t.app.inject({ method: 'GET', url: '/api/kubeconfig', headers: { ...t.adminHeaders, host: '127.0.0.1:8080' } });
    expect(download.statusCode, download.body).toBe(200);
    expect(download.headers['content-disposition']).toBe('attachment; filename="ops.example.com-kubeconfig.yaml"');
  });

  it('needs a signed-in caller', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/kubeconfig/file' })).statusCode).toBe(401);
  });
});
