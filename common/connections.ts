/**
 * Connection types of spec §3: the form of each (fields, required marks, defaults) and where each field is
 * kept on a connection row (`url`, `username`, `password`, `certificate`, `insecure_tls` or a `properties`
 * key). One table drives the console's forms, the API's validation and the Connection kind's type blocks
 * (`spec.slack.token`, `spec.smtp.host`, … in the Mission Control format), so they never disagree.
 */

/** Where a field's value is kept on the connection row. */
export type ConnectionTarget = TextTarget | 'insecure_tls' | `properties.${string}`;
/** The connection row's text columns a field may fill. */
export type TextTarget = 'url' | 'username' | 'password' | 'certificate';

/** Whether a field fills one of the row's text columns (not insecure_tls, not one of its properties). */
export function isTextTarget(target: ConnectionTarget): target is TextTarget {
  return target !== 'insecure_tls' && !target.startsWith('properties.');
}

export interface ConnectionField {
  /** The key in the Mission Control type block (`spec.<block>.<key>`) and in the console form. */
  key: string;
  label: string;
  target: ConnectionTarget;
  /** 'secret': encrypted at rest, never shown again (a static value, a secret or a config map reference). */
  input: 'text' | 'secret' | 'number' | 'checkbox' | 'select' | 'textarea';
  required?: boolean;
  default?: string;
  options?: readonly string[];
  placeholder?: string;
  hint?: string;
}

export type ConnectionCategory = 'Databases' | 'Notifications' | 'Cloud' | 'AI' | 'Source control' | 'Other';

export interface ConnectionTypeDef {
  type: string;
  label: string;
  category: ConnectionCategory;
  /** The Mission Control `spec.<block>` key when the format has one for this type. */
  block?: string;
  /** Spec §3: jmeter is hidden from the type picker. */
  hidden?: boolean;
  fields: readonly ConnectionField[];
  /**
   * What testing needs when this server cannot reach the peer by itself (cloud APIs): the test answers
   * that it cannot test here, naming this.
   */
  cloud?: string;
}

const url = (required = true, label = 'URL', placeholder?: string): ConnectionField => ({ key: 'url', label, target: 'url', input: 'text', required, ...(placeholder ? { placeholder } : {}) });
const username = (required = true, label = 'Username'): ConnectionField => ({ key: 'username', label, target: 'username', input: 'text', required });
const password = (required = true, label = 'Password', key = 'password'): ConnectionField => ({ key, label, target: 'password', input: 'secret', required });
const insecure: ConnectionField = { key: 'insecureTLS', label: 'Insecure TLS', target: 'insecure_tls', input: 'checkbox' };
const prop = (key: string, label: string, extra: Partial<ConnectionField> = {}): ConnectionField => ({ key, label, target: `properties.${key}`, input: 'text', ...extra });
const token = (key: string, label: string, required = true): ConnectionField => ({ key, label, target: 'password', input: 'secret', required });

const database = (type: string, label: string, block: string | undefined, placeholder: string): ConnectionTypeDef => ({
  type,
  label,
  category: 'Databases',
  ...(block ? { block } : {}),
  fields: [url(true, 'URL', placeholder), username(), password(), insecure],
});

const aiModel = (type: string, label: string, urlRequired: boolean, keyRequired: boolean, placeholder: string): ConnectionTypeDef => ({
  type,
  label,
  category: 'AI',
  block: type,
  fields: [url(urlRequired, 'URL', placeholder), prop('model', 'Model'), token('apiKey', 'API Key', keyRequired)],
});

const awsFields: readonly ConnectionField[] = [
  prop('region', 'Region', { placeholder: 'us-east-1' }),
  prop('profile', 'Profile'),
  { key: 'accessKey', label: 'Access Key', target: 'username', input: 'secret' },
  { key: 'secretKey', label: 'Secret Key', target: 'password', input: 'secret' },
  url(false, 'Endpoint'),
  insecure,
];

/** Every connection type of spec §3, in the spec's order. */
export const CONNECTION_TYPES: readonly ConnectionTypeDef[] = [
  aiModel('anthropic', 'Anthropic', false, true, 'https://api.anthropic.com'),
  aiModel('ollama', 'Ollama', true, true, 'http://localhost:11434'),
  aiModel('openai', 'OpenAI', false, true, 'https://api.openai.com/v1'),
  { type: 'aws', label: 'AWS', category: 'Cloud', block: 'aws', fields: awsFields, cloud: 'the AWS API' },
  { type: 's3', label: 'S3', category: 'Cloud', block: 's3', fields: [...awsFields, prop('bucket', 'Bucket', { required: true }), prop('usePathStyle', 'Use path style', { input: 'checkbox' })], cloud: 'the AWS API' },
  {
    type: 'azure',
    label: 'Azure',
    category: 'Cloud',
    block: 'azure',
    fields: [
      { key: 'clientID', label: 'Client ID', target: 'username', input: 'text', required: true },
      token('clientSecret', 'Client Secret'),
      prop('tenantID', 'Tenant ID', { required: true }),
    ],
    cloud: 'Azure',
  },
  {
    type: 'azure_devops',
    label: 'Azure DevOps',
    category: 'Source control',
    block: 'azureDevops',
    fields: [{ key: 'organization', label: 'Organization', target: 'username', input: 'text', required: true }, token('personalAccessToken', 'Personal Access Token'), url(false)],
    cloud: 'Azure DevOps',
  },
  {
    type: 'discord',
    label: 'Discord',
    category: 'Notifications',
    block: 'discord',
    fields: [{ key: 'webhookID', label: 'Webhook ID', target: 'username', input: 'text', required: true }, token('token', 'Token'), url(false, 'URL', 'https://discord.com')],
  },
  { type: 'dynatrace', label: 'Dynatrace', category: 'Cloud', fields: [url(true, 'URL', 'https://abc123.live.dynatrace.com'), token('apiKey', 'API Token'), insecure] },
  database('elasticsearch', 'Elasticsearch', undefined, 'https://elasticsearch:9200'),
  {
    type: 'email',
    label: 'Email',
    category: 'Notifications',
    block: 'smtp',
    fields: [
      prop('host', 'Host', { required: true, placeholder: 'smtp.example.com' }),
      prop('port', 'Port', { required: true, input: 'number', default: '587' }),
      prop('fromAddress', 'From Address', { required: true, placeholder: 'alerts@example.com' }),
      prop('fromName', 'From Name', { required: true }),
      prop('encryption', 'Encryption method', { input: 'select', options: ['None', 'ExplicitTLS', 'ImplicitTLS', 'Auto'], default: 'Auto' }),
      prop('auth', 'SMTP Auth', { input: 'select', options: ['None', 'Plain', 'CRAMMD5', 'Unknown', 'OAuth2'], default: 'Unknown' }),
      username(false),
      password(false),
      prop('toAddresses', 'To Addresses', { hint: 'comma separated' }),
      prop('subject', 'Subject'),
      insecure,
    ],
  },
  {
    type: 'google_cloud',
    label: 'Google Cloud',
    category: 'Cloud',
    block: 'gcp',
    fields: [url(false, 'Endpoint'), { key: 'certificate', label: 'Service account JSON', target: 'certificate', input: 'secret', required: true }],
    cloud: 'Google Cloud',
  },
  {
    type: 'generic_webhook',
    label: 'Generic Webhook',
    category: 'Notifications',
    fields: [
      url(true, 'URL', 'https://hooks.example.com/alerts'),
      prop('method', 'Request Method', { required: true, input: 'select', options: ['POST', 'GET'], default: 'POST' }),
      prop('messageKey', 'Message Key', { required: true, default: 'message' }),
      prop('titleKey', 'Title Key', { required: true, default: 'title' }),
      prop('contentType', 'ContentType', { default: 'application/json' }),
      username(false),
      password(false),
    ],
  },
  {
    type: 'git',
    label: 'Git',
    category: 'Source control',
    block: 'git',
    fields: [
      url(true, 'URL', 'https://github.com/org/repo.git'),
      prop('ref', 'Ref', { required: true, default: 'main' }),
      prop('authentication', 'Authentication', { input: 'select', options: ['Basic', 'SSH'], default: 'Basic' }),
      username(false),
      password(false),
      { key: 'certificate', label: 'SSH Key', target: 'certificate', input: 'secret', hint: 'with SSH authentication' },
    ],
  },
  { type: 'github', label: 'GitHub', category: 'Source control', block: 'github', fields: [token('personalAccessToken', 'Personal Access Token'), url(false, 'URL', 'https://api.github.com')] },
  { type: 'google_chat', label: 'Google Chat', category: 'Notifications', fields: [{ key: 'url', label: 'Webhook URL', target: 'url', input: 'secret', required: true }] },
  database('http', 'HTTP', 'http', 'https://api.example.com'),
  {
    type: 'ifttt',
    label: 'IFTTT',
    category: 'Notifications',
    fields: [token('webhookID', 'Webhook ID'), prop('events', 'Events', { required: true, hint: 'comma separated' }), url(false, 'URL', 'https://maker.ifttt.com')],
  },
  { type: 'jmeter', label: 'JMeter', category: 'Other', hidden: true, fields: [prop('host', 'Host', { required: true }), prop('port', 'Port', { input: 'number' })] },
  {
    type: 'kubernetes',
    label: 'Kubernetes',
    category: 'Cloud',
    block: 'kubernetes',
    fields: [{ key: 'certificate', label: 'Kubeconfig', target: 'certificate', input: 'secret', required: true }],
    cloud: 'a Kubernetes API server',
  },
  database('ldap', 'LDAP', undefined, 'ldap://ldap.example.com:389'),
  {
    type: 'matrix',
    label: 'Matrix',
    category: 'Notifications',
    fields: [url(true, 'Host', 'https://matrix.example.com'), username(false, 'User'), password(true), prop('rooms', 'Rooms', { hint: 'comma separated' })],
  },
  {
    type: 'mattermost',
    label: 'Mattermost',
    category: 'Notifications',
    fields: [url(true, 'Host', 'https://mattermost.example.com'), token('token', 'Token'), prop('channel', 'Channel'), username(false)],
  },
  database('mongo', 'MongoDB', 'mongo', 'mongodb://mongo:27017'),
  database('mysql', 'MySQL', 'mysql', 'mysql://mysql:3306/db'),
  {
    type: 'ntfy',
    label: 'Ntfy',
    category: 'Notifications',
    block: 'ntfy',
    fields: [{ key: 'host', label: 'Host', target: 'url', input: 'text', required: true, default: 'ntfy.sh' }, prop('topic', 'Topic', { required: true }), username(false), password(false)],
  },
  {
    type: 'opsgenie',
    label: 'OpsGenie',
    category: 'Notifications',
    fields: [{ key: 'host', label: 'Host', target: 'url', input: 'text', required: true, default: 'api.opsgenie.com' }, prop('port', 'Port', { required: true, input: 'number', default: '443' }), token('apiKey', 'API Key')],
  },
  database('postgres', 'Postgres', 'postgres', 'postgres://db:5432/app'),
  {
    type: 'prometheus',
    label: 'Prometheus',
    category: 'Other',
    block: 'prometheus',
    fields: [url(true, 'URL', 'http://prometheus:9090'), username(false), password(false), { key: 'bearer', label: 'Bearer token', target: 'properties.bearer', input: 'secret' }, insecure],
  },
  {
    type: 'pushbullet',
    label: 'Pushbullet',
    category: 'Notifications',
    block: 'pushbullet',
    fields: [token('token', 'Token'), prop('targets', 'Targets', { required: true, hint: 'comma separated' })],
  },
  {
    type: 'pushover',
    label: 'Pushover',
    category: 'Notifications',
    block: 'pushover',
    fields: [token('token', 'Token'), { key: 'user', label: 'User key', target: 'username', input: 'text', required: true }],
  },
  {
    type: 'redis',
    label: 'Redis',
    category: 'Databases',
    fields: [prop('db', 'Database', { required: true, input: 'number', default: '0' }), url(true, 'URL', 'redis://redis:6379'), username(false), password(false)],
  },
  {
    type: 'restic',
    label: 'Restic',
    category: 'Other',
    fields: [url(true, 'Repository', 's3:https://s3.amazonaws.com/bucket/restic'), password(true, 'Repository password'), { key: 'accessKey', label: 'Access Key', target: 'properties.accessKey', input: 'secret' }, { key: 'secretKey', label: 'Secret Key', target: 'properties.secretKey', input: 'secret' }],
  },
  {
    type: 'rocketchat',
    label: 'Rocket.Chat',
    category: 'Notifications',
    fields: [url(true, 'Host', 'https://rocket.example.com'), token('token', 'Token'), prop('channel', 'Channel'), username(false)],
  },
  {
    type: 'sftp',
    label: 'SFTP',
    category: 'Other',
    block: 'sftp',
    fields: [{ key: 'host', label: 'Host', target: 'url', input: 'text', required: true }, username(), password(), prop('port', 'Port', { input: 'number', default: '22' }), prop('path', 'Path')],
  },
  {
    type: 'slack',
    label: 'Slack',
    category: 'Notifications',
    block: 'slack',
    fields: [prop('channel', 'Channel', { required: true, placeholder: 'C0123456789' }), token('token', 'Bot Token'), prop('botName', 'Bot name'), url(false, 'API URL', 'https://slack.com/api')],
  },
  {
    type: 'smb',
    label: 'SMB',
    category: 'Other',
    block: 'smb',
    fields: [{ key: 'server', label: 'Server', target: 'url', input: 'text' }, prop('port', 'Port', { input: 'number', default: '445' }), prop('share', 'Share'), username(false), password(false)],
  },
  database('sql_server', 'SQL Server', 'mssql', 'sqlserver://mssql:1433?database=app'),
  {
    type: 'teams',
    label: 'Teams',
    category: 'Notifications',
    fields: [
      prop('group', 'Group'),
      prop('tenant', 'Tenant', { required: true }),
      prop('altID', 'AltID', { required: true }),
      { key: 'groupOwner', label: 'GroupOwner', target: 'password', input: 'secret', required: true },
      { key: 'host', label: 'Host', target: 'url', input: 'text', required: true, default: 'outlook.office.com' },
    ],
  },
  {
    type: 'telegram',
    label: 'Telegram',
    category: 'Notifications',
    block: 'telegram',
    fields: [token('token', 'Token'), prop('chats', 'Chats', { required: true, hint: 'chat ids or @channel names, comma separated' }), url(false, 'API URL', 'https://api.telegram.org')],
  },
  { type: 'windows', label: 'Windows', category: 'Other', fields: [url(true, 'Host'), username(), password(), prop('domain', 'Domain')] },
  {
    type: 'zulip_chat',
    label: 'Zulip Chat',
    category: 'Notifications',
    fields: [url(true, 'Host', 'https://zulip.example.com'), { key: 'botMail', label: 'Bot Mail', target: 'username', input: 'text', required: true }, token('botKey', 'Bot Key'), prop('stream', 'Stream'), prop('topic', 'Topic')],
  },
  { type: 'folder', label: 'Folder', category: 'Other', block: 'folder', fields: [{ key: 'path', label: 'Path', target: 'url', input: 'text', required: true, placeholder: '/var/lib/data' }] },
  { type: 'gcs', label: 'GCS', category: 'Cloud', block: 'gcs', fields: [url(false, 'Endpoint'), { key: 'certificate', label: 'Service account JSON', target: 'certificate', input: 'secret', required: true }, prop('bucket', 'Bucket', { required: true })], cloud: 'Google Cloud Storage' },
  { type: 'gitlab', label: 'Gitlab', category: 'Source control', block: 'gitlab', fields: [token('personalAccessToken', 'Personal Access Token'), url(false, 'URL', 'https://gitlab.com')] },
  // Key management services (Mission Control's awskms, azureKeyVault and gcpkms blocks): a key and the
  // credentials to use it, kept for what encrypts with them (SOPS). Nothing here calls them yet.
  {
    type: 'aws_kms',
    label: 'AWS KMS',
    category: 'Cloud',
    block: 'awskms',
    fields: [prop('keyID', 'Key ID', { required: true, placeholder: 'arn:aws:kms:eu-west-1:111122223333:alias/sops-key', hint: 'an ARN or alias/<name>' }), ...awsFields],
    cloud: 'AWS KMS',
  },
  {
    type: 'azure_key_vault',
    label: 'Azure Key Vault',
    category: 'Cloud',
    block: 'azureKeyVault',
    fields: [
      prop('keyID', 'Key ID', { required: true, placeholder: 'https://<vault>.vault.azure.net/keys/<key>' }),
      { key: 'clientID', label: 'Client ID', target: 'username', input: 'text', required: true },
      token('clientSecret', 'Client Secret'),
      prop('tenantID', 'Tenant ID', { required: true }),
    ],
    cloud: 'Azure Key Vault',
  },
  {
    type: 'gcp_kms',
    label: 'GCP KMS',
    category: 'Cloud',
    block: 'gcpkms',
    fields: [
      prop('keyID', 'Key ID', { required: true, placeholder: 'projects/<project>/locations/<location>/keyRings/<ring>/cryptoKeys/<key>' }),
      { key: 'certificate', label: 'Service account JSON', target: 'certificate', input: 'secret', required: true },
      prop('project', 'Project'),
      url(false, 'Endpoint'),
    ],
    cloud: 'Google Cloud KMS',
  },
];

const BY_TYPE = new Map(CONNECTION_TYPES.map((def) => [def.type, def]));
/** Mission Control's block keys (`spec.mssql`, `spec.smtp`, …) to types. */
const BY_BLOCK = new Map(CONNECTION_TYPES.flatMap((def) => (def.block ? [[def.block, def] as const] : [])));

export function connectionType(type: string): ConnectionTypeDef | undefined {
  return BY_TYPE.get(type);
}

/** Block keys read without regard to case, as Go's JSON decoding reads Mission Control's (`azurekeyvault`). */
const BY_BLOCK_LOWER = new Map([...BY_BLOCK].map(([block, def]) => [block.toLowerCase(), def]));

export function connectionTypeOfBlock(block: string): ConnectionTypeDef | undefined {
  return BY_BLOCK.get(block) ?? BY_BLOCK_LOWER.get(block.toLowerCase());
}

/** Types the type picker offers (spec §3: jmeter hidden), by label. */
export const PICKABLE_CONNECTION_TYPES: readonly ConnectionTypeDef[] = CONNECTION_TYPES.filter((def) => !def.hidden)
  .slice()
  .sort((a, b) => a.label.localeCompare(b.label));

/** Prefix of a value encrypted at rest; what reads show in its place. */
export const ENCRYPTED_PREFIX = 'wk:';
export const MASK = '******';

/** A reference to a value kept elsewhere, as connection fields store it (the duty EnvVar text form). */
export type ValueReference = { kind: 'secret' | 'configmap'; name: string; key: string } | { kind: 'helm'; name: string; key: string } | { kind: 'serviceaccount'; name: string };

/** `secret://name/key`, `configmap://name/key`, `helm://name/key`, `serviceaccount://name`; undefined for anything else. */
export function parseValueReference(text: string): ValueReference | undefined {
  const match = /^(secret|configmap|helm|serviceaccount):\/\/([^/]+)(?:\/(.+))?$/.exec(text);
  if (!match) return undefined;
  const [, kind, name = '', key] = match;
  if (kind === 'serviceaccount') return { kind, name };
  if (kind !== 'secret' && kind !== 'configmap' && kind !== 'helm') return undefined;
  if (!key) return undefined;
  return { kind, name, key };
}

export function valueReferenceText(ref: ValueReference): string {
  return ref.kind === 'serviceaccount' ? `serviceaccount://${ref.name}` : `${ref.kind}://${ref.name}/${ref.key}`;
}

/** The flat shape of a connection as the API reads and writes it (the `connections` row). */
export interface ConnectionInput {
  name: string;
  namespace: string;
  type: string;
  url?: string;
  username?: string;
  password?: string;
  certificate?: string;
  insecure_tls?: boolean;
  properties?: Record<string, string>;
}

/** The value a field has in a connection row (empty when unset). */
export function fieldValue(row: Pick<ConnectionInput, 'url' | 'username' | 'password' | 'certificate' | 'insecure_tls' | 'properties'>, field: ConnectionField): string {
  if (field.target === 'insecure_tls') return row.insecure_tls ? 'true' : '';
  if (field.target.startsWith('properties.')) return row.properties?.[field.target.slice('properties.'.length)] ?? '';
  return isTextTarget(field.target) ? (row[field.target] ?? '') : '';
}

/**
 * Problems of a connection by field (`url: is required`), as the API answers them with 400. The form's
 * required marks (spec §3) hold for the console and the API; a Connection document from a file is held
 * only to what Mission Control's format requires (`form: false`): a known type and well-formed values.
 */
export function connectionProblems(input: ConnectionInput, options: { form?: boolean } = {}): Array<{ path: string; message: string }> {
  const form = options.form ?? true;
  const problems: Array<{ path: string; message: string }> = [];
  if (!input.name || input.name.trim() === '') problems.push({ path: 'name', message: 'is required' });
  else if (!/^[a-z0-9]([-a-z0-9_.]*[a-z0-9])?$/i.test(input.name.trim())) problems.push({ path: 'name', message: 'must be letters, digits, -, _ or . (starting and ending with a letter or digit)' });
  if (!input.namespace || input.namespace.trim() === '') problems.push({ path: 'namespace', message: 'is required' });
  const def = connectionType(input.type);
  if (!def) {
    problems.push({ path: 'type', message: input.type ? `"${input.type}" is not a known connection type (known: ${CONNECTION_TYPES.map((t) => t.type).join(', ')})` : 'is required' });
    return problems;
  }
  for (const field of def.fields) {
    const value = fieldValue(input, field);
    const path = field.target;
    if (form && field.required && field.input !== 'checkbox' && value.trim() === '') problems.push({ path, message: `${field.label} is required` });
    else if (value !== '' && field.input === 'number' && !/^\d+$/.test(value.trim())) problems.push({ path, message: `${field.label} must be a whole number` });
    else if (value !== '' && field.input === 'select' && field.options && !field.options.includes(value)) problems.push({ path, message: `${field.label} must be one of ${field.options.join(', ')}` });
  }
  return problems;
}

/** The text a connection reference is written as in checks and scrapers. */
export function connectionReference(namespace: string, name: string): string {
  return `connection://${namespace}/${name}`;
}
