/**
 * The form of each check type (spec §3 "Health check and scraper forms"), declared rather than drawn:
 * one list of fields per type, named as canary-checker names them. A type without a form here is
 * edited in Code; a field the form cannot show as written (a secret from valueFrom, a method it does not
 * offer) is kept unchanged and edited in Code too.
 */

export type CheckFieldKind =
  /** One line of text. */
  | 'text'
  /** A whole number (written as a number). */
  | 'number'
  /** Several lines of text; `monospace` for scripts and queries. */
  | 'textarea'
  /** One of `options`. */
  | 'select'
  /** HTTP response codes: checkboxes of `options` (written as numbers). */
  | 'codes'
  /** A list of {name, value} (headers, environment variables). */
  | 'pairs'
  /** A list of texts, one per line. */
  | 'lines'
  /** canary-checker's EnvVar: a static value, written as {value: …}. */
  | 'secret';

export interface CheckField {
  /** The key in the check, as canary-checker names it. */
  name: string;
  label: string;
  kind: CheckFieldKind;
  required?: boolean;
  options?: readonly string[];
  /** The value a new check starts with (spec §3: Redis db defaults to 0). */
  initial?: string;
  placeholder?: string;
  hint?: string;
  monospace?: boolean;
  /** A password: typed into a masked input. */
  masked?: boolean;
  /** An older key read when `name` is absent; saving writes `name` (canary-checker's deprecated http `endpoint`). */
  legacy?: string;
  /** Shown (and written) only when this holds for the check's other values. */
  visible?: (values: Readonly<Record<string, FormFieldValue | undefined>>) => boolean;
}

export type FormFieldValue = string | string[] | Array<{ name: string; value: string }>;

/** Spec §3: HTTP methods offered, and the response codes offered. */
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;
export const HTTP_RESPONSE_CODES = ['200', '201', '202', '204', '301', '302', '401', '404', '500', '502', '503'] as const;
/** Spec §3: no body for GET and DELETE. */
const hasBody = (values: Readonly<Record<string, FormFieldValue | undefined>>) => values.method !== 'GET' && values.method !== 'DELETE';
export const DNS_QUERY_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'NS', 'PTR', 'SRV', 'TXT'] as const;

const thresholdMillis: CheckField = { name: 'thresholdMillis', label: 'Threshold (ms)', kind: 'number', hint: 'Fails when it takes longer' };
const username: CheckField = { name: 'username', label: 'Username', kind: 'secret' };
const password: CheckField = { name: 'password', label: 'Password', kind: 'secret', masked: true };
const sqlFields = (placeholder: string): readonly CheckField[] => [
  { name: 'url', label: 'Connection URL', kind: 'text', required: true, placeholder },
  username,
  password,
  { name: 'query', label: 'Query', kind: 'textarea', monospace: true, placeholder: 'SELECT 1' },
  { name: 'results', label: 'Expected rows', kind: 'number' },
];

export const CHECK_FORMS: Readonly<Record<string, readonly CheckField[]>> = {
  http: [
    { name: 'url', label: 'URL', kind: 'text', required: true, legacy: 'endpoint', placeholder: 'https://example.com/health' },
    { name: 'method', label: 'Method', kind: 'select', options: HTTP_METHODS, initial: 'GET' },
    { name: 'headers', label: 'Headers', kind: 'pairs' },
    { name: 'body', label: 'Body', kind: 'textarea', monospace: true, visible: hasBody },
    { name: 'responseCodes', label: 'Response codes', kind: 'codes', options: HTTP_RESPONSE_CODES, hint: 'None chosen: any 2xx passes' },
    { name: 'responseContent', label: 'Response content', kind: 'text', hint: 'Text the response must contain' },
    thresholdMillis,
    { name: 'maxSSLExpiry', label: 'Max SSL expiry (days)', kind: 'number', hint: 'Fails when the certificate expires sooner' },
    username,
    password,
  ],
  tcp: [{ name: 'endpoint', label: 'Endpoint', kind: 'text', required: true, placeholder: 'host:port' }, thresholdMillis],
  tls: [
    { name: 'endpoint', label: 'Endpoint', kind: 'text', required: true, placeholder: 'example.com:443', hint: 'host:port (port 443 when left out)' },
    { name: 'serverName', label: 'Server name', kind: 'text', hint: 'The name sent and checked; blank: the endpoint\'s host' },
    { name: 'maxSSLExpiry', label: 'Max SSL expiry (days)', kind: 'number', hint: 'Fails when the certificate expires sooner' },
    thresholdMillis,
  ],
  icmp: [
    { name: 'endpoint', label: 'Host', kind: 'text', required: true, placeholder: 'e.g. 10.0.0.1 or db.internal' },
    thresholdMillis,
    { name: 'packetLossThreshold', label: 'Packet loss threshold (%)', kind: 'number' },
    { name: 'packetCount', label: 'Packet count', kind: 'number' },
  ],
  dns: [
    { name: 'server', label: 'Server', kind: 'text', placeholder: 'e.g. 1.1.1.1 (blank: the system resolver)' },
    { name: 'port', label: 'Port', kind: 'number', placeholder: '53' },
    { name: 'query', label: 'Query', kind: 'text', required: true, placeholder: 'e.g. example.com' },
    { name: 'querytype', label: 'Query type', kind: 'select', options: DNS_QUERY_TYPES, initial: 'A' },
    { name: 'minrecords', label: 'Minimum records', kind: 'number' },
    { name: 'exactreply', label: 'Exact reply', kind: 'lines', hint: 'One record per line' },
    thresholdMillis,
  ],
  exec: [
    { name: 'script', label: 'Script', kind: 'textarea', monospace: true, required: true, placeholder: 'echo ok' },
    { name: 'env', label: 'Environment', kind: 'pairs' },
  ],
  folder: [
    { name: 'path', label: 'Path', kind: 'text', required: true, placeholder: '/var/backups' },
    { name: 'minCount', label: 'Minimum files', kind: 'number' },
    { name: 'maxCount', label: 'Maximum files', kind: 'number' },
    { name: 'minAge', label: 'Minimum age', kind: 'text', placeholder: 'e.g. 1h' },
    { name: 'maxAge', label: 'Maximum age', kind: 'text', placeholder: 'e.g. 25h' },
  ],
  postgres: sqlFields('postgres://db.internal:5432/app'),
  mysql: sqlFields('mysql://db.internal:3306/app'),
  redis: [{ name: 'addr', label: 'Address', kind: 'text', required: true, placeholder: 'host:6379' }, { name: 'db', label: 'Database', kind: 'number', initial: '0' }, username, password],
  ldap: [
    { name: 'url', label: 'URL', kind: 'text', required: true, placeholder: 'ldaps://ldap.internal:636' },
    { name: 'bindDN', label: 'Base DN', kind: 'text', required: true, placeholder: 'ou=users,dc=example,dc=com' },
    { name: 'userSearch', label: 'User search', kind: 'text', placeholder: '(&(objectClass=person)(uid=alice))' },
    username,
    password,
  ],
  prometheus: [
    { name: 'url', label: 'URL', kind: 'text', required: true, placeholder: 'http://prometheus:9090' },
    { name: 'query', label: 'Query', kind: 'textarea', monospace: true, required: true, placeholder: 'up == 1' },
    username,
    password,
  ],
  junit: [
    { name: 'testResults', label: 'Test results', kind: 'text', required: true, placeholder: '/var/reports/**/*.xml', hint: 'A JUnit XML file, a folder of them, or a glob' },
    { name: 'timeout', label: 'Timeout (minutes)', kind: 'number' },
  ],
  webhook: [{ name: 'token', label: 'Token', kind: 'secret', masked: true, hint: 'Callers must send it; blank: anyone who can reach the webhook' }],
};

export function checkForm(type: string): readonly CheckField[] | undefined {
  return Object.hasOwn(CHECK_FORMS, type) ? CHECK_FORMS[type] : undefined;
}

export function isVisible(field: CheckField, values: Readonly<Record<string, FormFieldValue | undefined>>): boolean {
  return field.visible ? field.visible(values) : true;
}
