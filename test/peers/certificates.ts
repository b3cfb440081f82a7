import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface TestCertificates {
  /** PEM of the CA that signed the server certificate: what a client trusts. */
  ca: string;
  cert: string;
  key: string;
}

const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

/**
 * A throw-away CA and a server certificate it signed for localhost and 127.0.0.1, valid for `days`, made
 * with the system's openssl (a check trusts the CA the way an operator would, instead of skipping checks).
 */
async function issue(days: number): Promise<TestCertificates> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'wk-ca-'));
  const file = (name: string) => path.join(dir, name);
  try {
    await run('openssl', ['req', '-x509', ...EC, '-keyout', file('ca.key'), '-out', file('ca.pem'), '-days', String(days), '-subj', '/CN=Watchkeeper test CA/O=Watchkeeper tests',
      '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']);
    await run('openssl', ['req', ...EC, '-keyout', file('server.key'), '-out', file('server.csr'), '-subj', '/CN=localhost/O=Watchkeeper tests']);
    await writeFile(file('ext.cnf'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n');
    await run('openssl', ['x509', '-req', '-in', file('server.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key'), '-CAcreateserial', '-out', file('server.pem'), '-days', String(days), '-extfile', file('ext.cnf')]);
    const [ca, cert, key] = await Promise.all([readFile(file('ca.pem'), 'utf8'), readFile(file('server.pem'), 'utf8'), readFile(file('server.key'), 'utf8')]);
    return { ca, cert, key };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const issued = new Map<number, Promise<TestCertificates>>();

/** Certificates valid for `days` (90 by default), made once per test process. */
export function testCertificates(days = 90): Promise<TestCertificates> {
  let pending = issued.get(days);
  if (!pending) {
    pending = issue(days);
    issued.set(days, pending);
  }
  return pending;
}
