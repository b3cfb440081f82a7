import net from 'node:net';
import tls from 'node:tls';
import { z } from 'zod';
import { messageOf } from '../../../platform/errors';
import { defineCheckType } from '../define';
import { celDuration } from '../../../platform/expressions';
import { describeCertificate, expiryProblem } from './certificate';
import { envVarField as envVarSchema } from '../../../platform/peers/credentials';
import { egressConnectOptions } from '../../../platform/egress';

const schema = z
  .object({
    endpoint: z
      .string({ message: 'is required' })
      .trim()
      .regex(/^(\[[^\]]+\]|[^:/\s]+)(:\d{1,5})?$/, 'must be host:port, e.g. example.com:443'),
    serverName: z.string().trim().min(1).optional(),
    maxSSLExpiry: z.number().int().nonnegative().optional(),
    insecureSkipVerify: z.boolean().optional(),
    ca: envVarSchema.optional(),
    thresholdMillis: z.number().int().positive().optional(),
  })
  .loose();

type TlsSpec = z.infer<typeof schema>;

function target(spec: TlsSpec): { host: string; port: number } {
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(spec.endpoint);
  return { host: (match?.[1] ?? spec.endpoint).replace(/^\[|\]$/g, ''), port: Number(match?.[2] ?? 443) };
}

// Node reports why a certificate is not trusted as an OpenSSL code; people read these words instead.
const TRUST_ERRORS: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'self-signed certificate in certificate chain',
  CERT_HAS_EXPIRED: 'certificate has expired',
  CERT_NOT_YET_VALID: 'certificate is not yet valid',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'unable to verify the first certificate',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'unable to get local issuer certificate',
  UNABLE_TO_GET_ISSUER_CERT: 'unable to get issuer certificate',
  CERT_REVOKED: 'certificate revoked',
  CERT_SIGNATURE_FAILURE: 'certificate signature failure',
};

function trustError(error: unknown): string | undefined {
  if (error === undefined || error === null) return undefined;
  const text = error instanceof Error ? error.message : String(error);
  return TRUST_ERRORS[text] ?? text.toLowerCase().replaceAll('_', ' ');
}

interface Handshake {
  certificate: tls.PeerCertificate;
  authorizationError: string | undefined;
  protocol: string;
  cipher: string;
}

/** Connects, completes the handshake and hangs up; the certificate is judged afterwards, untrusted or not. */
async function handshake(spec: TlsSpec, signal: AbortSignal): Promise<Handshake> {
  const { host, port } = target(spec);
  const serverName = spec.serverName ?? (net.isIP(host) ? undefined : host);
  // The egress policy (server/platform/egress.ts): a refused address is never connected to.
  const egress = await egressConnectOptions(host);
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ ...egress, host, port, ...(serverName ? { servername: serverName } : {}), rejectUnauthorized: false, ...(spec.ca ? { ca: spec.ca } : {}) });
    const abort = () => socket.destroy(new Error('no handshake before the timeout'));
    signal.addEventListener('abort', abort, { once: true });
    socket.once('secureConnect', () => {
      signal.removeEventListener('abort', abort);
      const certificate = socket.getPeerCertificate();
      resolve({
        certificate,
        authorizationError: trustError(socket.authorizationError),
        protocol: socket.getProtocol() ?? '',
        cipher: socket.getCipher()?.name ?? '',
      });
      socket.end();
    });
    socket.once('error', (error) => {
      signal.removeEventListener('abort', abort);
      reject(error);
    });
  });
}

/**
 * `tls` (ours; canary-checker has it only inside http as maxSSLExpiry): opens a TLS connection to
 * host:port and checks the certificate: trusted and matching the name (unless insecureSkipVerify), not
 * expired, and valid for at least maxSSLExpiry days. Variables: sslAge, daysLeft, notBefore, notAfter,
 * subject, issuer, dnsNames, serialNumber, fingerprint, authorized, authorizationError, protocol, cipher.
 */
export const tlsCheck = defineCheckType({
  type: 'tls',
  label: 'TLS certificate',
  icon: 'shield-check',
  schema,
  endpoint: (spec) => spec.endpoint,
  timeoutMs: (spec) => (spec.thresholdMillis ? spec.thresholdMillis * 2 : undefined),
  async run(spec, ctx) {
    const { host } = target(spec);
    const started = performance.now();
    let shake: Handshake;
    try {
      shake = await handshake(spec, ctx.signal);
    } catch (error) {
      const duration = Math.round(performance.now() - started);
      return { pass: false, duration, message: `no TLS handshake with ${spec.endpoint}: ${messageOf(error)}`, error: messageOf(error), data: { endpoint: spec.endpoint } };
    }
    const duration = Math.round(performance.now() - started);
    const info = describeCertificate(shake.certificate);
    const nameError = tls.checkServerIdentity(spec.serverName ?? host, shake.certificate);
    const problems: string[] = [];
    if (!spec.insecureSkipVerify) {
      if (shake.authorizationError) problems.push(`the certificate is not trusted: ${shake.authorizationError}`);
      if (nameError) problems.push(`the certificate does not match the name: ${nameError.message}`);
    }
    if (info.msLeft < 0 && !problems.some((problem) => problem.includes('expired'))) problems.push(`the certificate expired on ${info.notAfter}`);
    const expiry = spec.maxSSLExpiry && info.msLeft >= 0 ? expiryProblem(info, spec.maxSSLExpiry) : undefined;
    if (expiry) problems.push(expiry);
    if (spec.thresholdMillis && duration > spec.thresholdMillis) problems.push(`the handshake took ${duration} ms, more than the threshold of ${spec.thresholdMillis} ms`);
    const data = {
      endpoint: spec.endpoint,
      sslAge: celDuration(info.msLeft),
      daysLeft: info.daysLeft,
      notBefore: info.notBefore,
      notAfter: info.notAfter,
      subject: info.subject,
      issuer: info.issuer,
      dnsNames: info.dnsNames,
      serialNumber: info.serialNumber,
      fingerprint: info.fingerprint256,
      authorized: !shake.authorizationError && !nameError,
      authorizationError: shake.authorizationError ?? nameError?.message ?? '',
      protocol: shake.protocol,
      cipher: shake.cipher,
    };
    const details = { certificate: info, protocol: shake.protocol, cipher: shake.cipher, authorized: data.authorized, ...(data.authorizationError ? { authorizationError: data.authorizationError } : {}) };
    if (problems.length > 0) return { pass: false, duration, message: problems.join('; '), data, details };
    return { pass: true, duration, message: `the certificate is valid for ${info.daysLeft} more days (until ${info.notAfter})`, data, details };
  },
});
