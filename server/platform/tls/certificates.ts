import { randomBytes, X509Certificate, createPrivateKey } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { codeOf } from '../errors';
import type * as X509 from '@peculiar/x509';

/**
 * The console's own certificate authority (docs/OPERATIONS.md "HTTPS"): made in `<data dir>/tls` on first
 * start, it signs the server certificate for the names the console is reached at. kubectl (and a browser
 * that is told to trust `ca.crt`) verify the server against it; the kubeconfig download carries it.
 *
 * Keys are ECDSA P-256 made by Node's WebCrypto; the certificates are built by @peculiar/x509 (MIT, pure
 * JavaScript). Node itself only parses and verifies certificates, it cannot issue them.
 */

export interface TlsFiles {
  /** PEM of the CA certificate (what a client trusts). */
  caCert: string;
  /** PEM of the server certificate followed by the CA (the chain the server presents). */
  cert: string;
  /** PEM (PKCS #8) of the server's private key. */
  key: string;
  /** When the server certificate stops being valid. */
  notAfter: Date;
  /** What was done: the files were all reused, or some were made. */
  made: Array<'ca' | 'server'>;
}

/** The CA lives ten years; it is made again only when missing, unreadable or within RENEW_BEFORE of its end. */
const CA_DAYS = 3650;
/** The server certificate: 397 days (the most browsers accept for a certificate they are told to trust). */
const SERVER_DAYS = 397;
/** A certificate with less than this left is made again at start (and by the daily check of a running server). */
export const RENEW_BEFORE_MS = 30 * 24 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Node's Web Crypto (node:crypto's webcrypto is the same object), typed as the DOM's, which @peculiar/x509 takes. */
const webcrypto: Crypto = globalThis.crypto;
const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

type X509Module = typeof X509;
let x509Module: Promise<X509Module> | undefined;

/** @peculiar/x509 needs a Reflect metadata polyfill loaded before it (its dependency injection uses it). */
function loadX509(): Promise<X509Module> {
  x509Module ??= (async () => {
    await import('reflect-metadata');
    const x509 = await import('@peculiar/x509');
    x509.cryptoProvider.set(webcrypto);
    return x509;
  })();
  return x509Module;
}

/** The names a server certificate must cover: the loopback names plus those given, deduplicated, IPs apart. */
export function certificateNames(extra: Array<string | undefined>): { dns: string[]; ips: string[] } {
  const dns = new Set<string>(['localhost']);
  const ips = new Set<string>(['127.0.0.1', '::1']);
  for (const raw of extra) {
    const name = raw?.trim().replace(/^\[|\]$/g, '').toLowerCase();
    if (!name || name === '0.0.0.0' || name === '::') continue;
    if (net.isIP(name)) ips.add(name);
    else if (/^[a-z0-9*]([a-z0-9.-]*[a-z0-9])?$/.test(name)) dns.add(name);
  }
  return { dns: [...dns], ips: [...ips] };
}

function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0] ?? 0) & 0x7f; // a positive integer
  return bytes.toString('hex');
}

async function readIfPresent(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/** Written beside, then renamed: a reader never sees half a file; keys with mode 0600 from the start. */
async function writeAtomic(file: string, text: string, mode: number): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await fs.writeFile(temporary, text, { mode });
  await fs.chmod(temporary, mode);
  await fs.rename(temporary, file);
}

function withNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

function pem(label: string, der: ArrayBuffer): string {
  const base64 = Buffer.from(der).toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '');
  return `-----BEGIN ${label}-----\n${base64}\n-----END ${label}-----\n`;
}

async function importPrivateKey(keyPem: string): Promise<CryptoKey> {
  const der = createPrivateKey(keyPem).export({ format: 'der', type: 'pkcs8' });
  return webcrypto.subtle.importKey('pkcs8', der, ALGORITHM, true, ['sign']);
}

/** Whether a PEM certificate parses, belongs to the key and is valid for at least RENEW_BEFORE more. */
function usable(certPem: string | undefined, keyPem: string | undefined, now: Date): X509Certificate | undefined {
  if (!certPem || !keyPem) return undefined;
  try {
    const cert = new X509Certificate(certPem);
    if (!cert.checkPrivateKey(createPrivateKey(keyPem))) return undefined;
    if (new Date(cert.validTo).getTime() - now.getTime() < RENEW_BEFORE_MS) return undefined;
    if (new Date(cert.validFrom).getTime() > now.getTime() + DAY_MS) return undefined;
    return cert;
  } catch {
    return undefined;
  }
}

async function makeCa(x509: X509Module, now: Date, label: string): Promise<{ cert: string; key: string }> {
  const keys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: [{ CN: [`Watchkeeper local CA (${label})`] }, { O: ['Watchkeeper'] }],
    notBefore: new Date(now.getTime() - 60 * 60 * 1000),
    notAfter: new Date(now.getTime() + CA_DAYS * DAY_MS),
    signingAlgorithm: ALGORITHM,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { cert: withNewline(cert.toString('pem')), key: pem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)) };
}

async function makeServer(x509: X509Module, now: Date, ca: { cert: string; key: string }, names: { dns: string[]; ips: string[] }): Promise<{ cert: string; key: string }> {
  const keys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const caCert = new x509.X509Certificate(ca.cert);
  const caNotAfter = caCert.notAfter.getTime();
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject: [{ CN: [names.dns[0] ?? 'localhost'] }, { O: ['Watchkeeper'] }],
    issuer: caCert.subjectName,
    notBefore: new Date(now.getTime() - 60 * 60 * 1000),
    notAfter: new Date(Math.min(now.getTime() + SERVER_DAYS * DAY_MS, caNotAfter)),
    signingAlgorithm: ALGORITHM,
    publicKey: keys.publicKey,
    signingKey: await importPrivateKey(ca.key),
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([...names.dns.map((value) => ({ type: 'dns' as const, value })), ...names.ips.map((value) => ({ type: 'ip' as const, value }))]),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(caCert),
    ],
  });
  return { cert: withNewline(cert.toString('pem')), key: pem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)) };
}

/** Whether the server certificate was signed by this CA and names every one of `names`. */
function covers(cert: X509Certificate, ca: X509Certificate, names: { dns: string[]; ips: string[] }): boolean {
  if (!cert.verify(ca.publicKey) || !cert.checkIssued(ca)) return false;
  return names.dns.every((name) => cert.checkHost(name, { wildcards: false }) === name) && names.ips.every((ip) => cert.checkIP(ip) !== undefined);
}

/**
 * Makes sure `<dir>/ca.crt`, `ca.key`, `server.crt` and `server.key` exist and are fit: each is made again
 * when missing, unreadable, about to expire (RENEW_BEFORE), or — for the server certificate — not signed by
 * the CA or not naming one of `names`. Keys are written with mode 0600, the folder 0700.
 */
export async function ensureCertificates(dir: string, extraNames: Array<string | undefined>, now = new Date()): Promise<TlsFiles> {
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const names = certificateNames(extraNames);
  const files = { caCert: path.join(dir, 'ca.crt'), caKey: path.join(dir, 'ca.key'), cert: path.join(dir, 'server.crt'), key: path.join(dir, 'server.key') };
  const made: TlsFiles['made'] = [];

  let caCertPem = await readIfPresent(files.caCert);
  let caKeyPem = await readIfPresent(files.caKey);
  let ca = usable(caCertPem, caKeyPem, now);
  if (!ca || !ca.ca) {
    const x509 = await loadX509();
    const fresh = await makeCa(x509, now, names.dns.find((name) => name !== 'localhost') ?? 'localhost');
    await writeAtomic(files.caKey, fresh.key, 0o600);
    await writeAtomic(files.caCert, fresh.cert, 0o644);
    caCertPem = fresh.cert;
    caKeyPem = fresh.key;
    ca = new X509Certificate(fresh.cert);
    made.push('ca');
  } else {
    // An older file may have looser permissions: a private key is the owner's only.
    await fs.chmod(files.caKey, 0o600);
  }

  let certPem = await readIfPresent(files.cert);
  let keyPem = await readIfPresent(files.key);
  // The chain file holds the server certificate first; X509Certificate reads the first one.
  let cert = usable(certPem, keyPem, now);
  if (!cert || !covers(cert, ca, names) || made.includes('ca')) {
    const x509 = await loadX509();
    const fresh = await makeServer(x509, now, { cert: caCertPem ?? '', key: caKeyPem ?? '' }, names);
    certPem = `${fresh.cert}${caCertPem ?? ''}`;
    keyPem = fresh.key;
    await writeAtomic(files.key, keyPem, 0o600);
    await writeAtomic(files.cert, certPem, 0o644);
    cert = new X509Certificate(fresh.cert);
    made.push('server');
  } else {
    await fs.chmod(files.key, 0o600);
  }
  return { caCert: caCertPem ?? '', cert: certPem ?? '', key: keyPem ?? '', notAfter: new Date(cert.validTo), made };
}
