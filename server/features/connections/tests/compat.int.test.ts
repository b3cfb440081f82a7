import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENCRYPTED_PREFIX } from '../../../../common/connections';
import { createTestApp, type TestApp } from '../../../../test/app';
import { createLogger } from '../../../platform/logger';
import { ROOT } from '../../../platform/paths';
import { applyDocuments } from '../../../platform/resources';
import { features } from '../../index';

/**
 * Connection files in Mission Control's format (tests/fixtures/compat, our own): the key management types it
 * writes as typed blocks (`spec.awskms`, `spec.azureKeyVault`, `spec.gcpkms`) apply, are stored with their
 * fields (a secret written in clear sealed, references kept as written) and listed with their type.
 */
const log = createLogger('silent');
const kinds = features.flatMap((feature) => feature.kinds ?? []);
const FIXTURE = path.join(ROOT, 'server', 'features', 'connections', 'tests', 'fixtures', 'compat', 'key-management.yaml');
const CLEAR = 'not-a-real-secret-but-written-in-clear';
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t?.close();
});

describe('key management connections (awskms, azureKeyVault, gcpkms)', () => {
  it('apply without a warning and are stored with their fields, secrets sealed', async () => {
    const results = await applyDocuments(t.db.pool, kinds, [{ file: 'key-management.yaml', text: await readFile(FIXTURE, 'utf8') }], 'ConfigFile', log);
    expect(results.map((result) => ({ errors: result.errors, warnings: result.outcome?.warnings ?? [] }))).toEqual([
      { errors: [], warnings: [] },
      { errors: [], warnings: [] },
      { errors: [], warnings: [] },
    ]);
    const { rows } = await t.db.pool.query("SELECT name, type, url, username, password, certificate, properties FROM connections WHERE namespace = 'harbour' AND deleted_at IS NULL ORDER BY name");
    expect(rows).toEqual([
      {
        name: 'harbour-aws-key',
        type: 'aws_kms',
        url: null,
        username: 'secret://harbour-aws/AWS_ACCESS_KEY_ID',
        password: 'secret://harbour-aws/AWS_SECRET_ACCESS_KEY',
        certificate: null,
        properties: { keyID: 'arn:aws:kms:eu-north-1:111122223333:alias/harbour-sops', region: 'eu-north-1' },
      },
      {
        name: 'harbour-azure-key',
        type: 'azure_key_vault',
        url: null,
        username: '5f0c2b7e-0000-4000-8000-00000000c0de',
        password: expect.stringMatching(new RegExp(`^${ENCRYPTED_PREFIX}`)),
        certificate: null,
        properties: { keyID: 'https://harbour-vault.vault.azure.net/keys/sops', tenantID: 'secret://harbour-azure/AZURE_TENANT_ID' },
      },
      {
        name: 'harbour-gcp-key',
        type: 'gcp_kms',
        url: null,
        username: null,
        password: null,
        certificate: 'secret://harbour-gcloud/credentials.json',
        properties: { keyID: 'projects/harbour-ops/locations/global/keyRings/sops/cryptoKeys/harbour' },
      },
    ]);
    expect(JSON.stringify(rows)).not.toContain(CLEAR);
  });

  it('are listed with their type and the sealed secret masked', async () => {
    const list = await t.app.inject({ method: 'GET', url: '/api/db/connections?select=id,name,type,password&namespace=eq.harbour&order=name', headers: t.adminHeaders });
    expect(list.statusCode).toBe(200);
    expect(list.json().map(({ name, type, password }: Record<string, string>) => ({ name, type, password }))).toEqual([
      { name: 'harbour-aws-key', type: 'aws_kms', password: 'secret://harbour-aws/AWS_SECRET_ACCESS_KEY' },
      { name: 'harbour-azure-key', type: 'azure_key_vault', password: '******' },
      { name: 'harbour-gcp-key', type: 'gcp_kms', password: null },
    ]);
    // Its tenant comes from a Secret that is not there: testing says so (honestly, before any cloud question).
    const tested = await t.app.inject({ method: 'POST', url: `/api/connection/test/${list.json()[1].id}`, headers: t.adminHeaders, payload: {} });
    expect(tested.json()).toMatchObject({ ok: false, message: 'connection harbour/harbour-azure-key properties.tenantID: secret "harbour-azure" not found in namespace "harbour"' });
    expect(tested.body).not.toContain(CLEAR);
  });

  it('read a block whose key is written in another case, as Go\'s JSON decoding does; a test says they cannot be tested here', async () => {
    const [result] = await applyDocuments(t.db.pool, kinds, [{ file: 'lower.yaml', text: `
apiVersion: mission-control.flanksource.com/v1
kind: Connection
metadata: {name: lower-case-block, namespace: harbour}
spec:
  azurekeyvault: {keyID: "https://v.vault.azure.net/keys/k", clientID: c, clientSecret: s, tenantID: t}
` }], 'ConfigFile', log);
    expect(result).toMatchObject({ ok: true, errors: [] });
    const { rows } = await t.db.pool.query("SELECT id, type FROM connections WHERE name = 'lower-case-block'");
    expect(rows[0]?.type).toBe('azure_key_vault');
    const tested = await t.app.inject({ method: 'POST', url: `/api/connection/test/${rows[0]?.id}`, headers: t.adminHeaders, payload: {} });
    expect(tested.json()).toMatchObject({ ok: false, tested: false, message: 'Azure Key Vault connections cannot be tested here: this server has no route to Azure Key Vault' });
  });
});
