import type tls from 'node:tls';
import { formatDuration } from '../../../platform/units';

const DAY_MS = 86_400_000;

/** A server certificate as http and tls checks report it (variables and details). */
export interface CertificateInfo {
  subject: string;
  issuer: string;
  /** ISO dates. */
  notBefore: string;
  notAfter: string;
  /** Milliseconds until notAfter (negative once expired). */
  msLeft: number;
  /** Whole days until notAfter (negative once expired). */
  daysLeft: number;
  dnsNames: string[];
  serialNumber: string;
  fingerprint256: string;
}

/** "CN=example.com, O=Example" from Node's parsed name (values may repeat, as arrays). */
function distinguishedName(name: tls.Certificate | undefined): string {
  if (!name) return '';
  return Object.entries(name)
    .flatMap(([key, value]) => (Array.isArray(value) ? value.map((item) => `${key}=${String(item)}`) : [`${key}=${String(value)}`]))
    .join(', ');
}

export function describeCertificate(certificate: tls.PeerCertificate, now = Date.now()): CertificateInfo {
  const notBefore = new Date(certificate.valid_from);
  const notAfter = new Date(certificate.valid_to);
  const msLeft = notAfter.getTime() - now;
  const dnsNames = (certificate.subjectaltname ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.startsWith('DNS:') || item.startsWith('IP Address:'))
    .map((item) => item.replace(/^DNS:|^IP Address:/, ''));
  return {
    subject: distinguishedName(certificate.subject),
    issuer: distinguishedName(certificate.issuer),
    notBefore: Number.isNaN(notBefore.getTime()) ? '' : notBefore.toISOString(),
    notAfter: Number.isNaN(notAfter.getTime()) ? '' : notAfter.toISOString(),
    msLeft,
    daysLeft: Math.floor(msLeft / DAY_MS),
    dnsNames,
    serialNumber: certificate.serialNumber ?? '',
    fingerprint256: certificate.fingerprint256 ?? '',
  };
}

/** The failure of a `maxSSLExpiry` rule, or undefined when the certificate lives long enough. */
export function expiryProblem(info: CertificateInfo, maxSSLExpiryDays: number): string | undefined {
  if (info.msLeft >= maxSSLExpiryDays * DAY_MS) return undefined;
  if (info.msLeft < 0) return `the certificate expired ${formatDuration(-info.msLeft)} ago (${info.notAfter})`;
  return `the certificate expires in ${formatDuration(info.msLeft)} (${info.notAfter}), sooner than maxSSLExpiry of ${maxSSLExpiryDays} days`;
}
