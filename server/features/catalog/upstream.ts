import { isRecord } from '../../platform/errors';
import { withoutUnrun, type UnrunFields } from '../../platform/resources';

/**
 * config-db fields of a ScrapeConfig entry that this console reads but does not run, by scraper type. They
 * are taken out before the entry's schema sees them and each is reported by path (docs/RESOURCES.md:
 * a warning, never a refusal, never silence).
 */

/** BaseScraper fields every type shares. */
const BASE: UnrunFields = { timestampFormat: 'created and deleted times are read as RFC 3339 or epoch' };
const CONNECTION = 'named connections are not resolved here; write the URL and credentials in the entry';

const BY_TYPE: Record<string, UnrunFields> = {
  file: { icon: 'items take the icon of their type', connection: CONNECTION },
  sql: {},
  http: {
    connection: CONNECTION,
    bearer: 'bearer tokens are not sent; use headers (Authorization: Bearer …)',
    oauth: 'OAuth is not supported for HTTP scrapers',
    tls: 'client certificates and custom CAs are not supported; insecureSkipVerify is',
    digest: 'digest authentication is not supported for HTTP scrapers',
    ntlm: 'NTLM is not supported',
    ntlmv2: 'NTLM is not supported',
    env: 'templated requests are not supported',
  },
  exec: {
    connections: 'cloud and Kubernetes credentials are not injected',
    checkout: 'repositories are not checked out before the script; use a git scraper',
    artifacts: 'artifacts are not collected',
  },
  git: {
    connection: CONNECTION,
    certificate: 'SSH keys are not supported; use https with username and password',
    depth: 'the history is fetched as git needs it',
    destination: 'the checkout lives in the data directory',
    branches: 'only one branch (branch or ref) is read',
    files: 'every file matching paths is read as configuration',
  },
  kubernetesFile: {},
};

/** Transform fields (config-db's Transform) not run here. */
const TRANSFORM: UnrunFields = {
  gotemplate: 'only expr (CEL) transforms are run',
  jsonpath: 'only expr (CEL) transforms are run',
  javascript: 'only expr (CEL) transforms are run',
  changes: 'change mapping and exclusion are not supported; every change is kept',
  locations: 'locations are not supported',
  aliases: 'aliases are not supported',
};
const RELATIONSHIP: UnrunFields = {
  external_id: 'match by id, name, namespace, type or labels',
  agent: 'every agent is searched',
  scope: 'scopes are not supported',
  expr: 'relationship expressions are not supported',
};
const RELATIONSHIP_MATCH = ['id', 'name', 'namespace', 'type', 'labels'];

function transform(raw: unknown, where: string, warnings: string[]): unknown {
  if (!isRecord(raw)) return raw;
  const out = withoutUnrun(raw, where, TRANSFORM, warnings);
  if (Array.isArray(out.relationship)) {
    out.relationship = out.relationship.flatMap((rule, index) => {
      if (!isRecord(rule)) return [rule];
      const at = `${where}.relationship[${index}]`;
      const kept = withoutUnrun(rule, at, RELATIONSHIP, warnings);
      // A rule left with nothing to match by would relate every item: it is left out instead.
      if (!RELATIONSHIP_MATCH.some((key) => kept[key] !== undefined)) {
        warnings.push(`${at}: nothing left to match by; the rule is left out`);
        return [];
      }
      return [kept];
    });
  }
  return out;
}

/**
 * An entry as this console runs it, or undefined when it cannot run at all (reported): config-db's
 * kubernetesFile reads files inside pods (selector, container, files), which needs a cluster.
 */
export function upstreamEntry(type: string, raw: Record<string, unknown>, where: string, warnings: string[]): Record<string, unknown> | undefined {
  if (type === 'kubernetesFile' && raw.paths === undefined && (raw.selector !== undefined || raw.files !== undefined || raw.container !== undefined)) {
    warnings.push(`${where}: reading files inside pods (selector, container, files) needs a Kubernetes cluster, which this console does not reach; the entry is left out (use paths for manifests on disk)`);
    return undefined;
  }
  if ((type === 'http' || type === 'file' || type === 'git') && raw.url === undefined && raw.paths === undefined && typeof raw.connection === 'string') {
    warnings.push(`${where}: the entry reads its target from the connection "${raw.connection}", which this console does not resolve; the entry is left out`);
    return undefined;
  }
  const out = withoutUnrun(raw, where, { ...BASE, ...(BY_TYPE[type] ?? {}) }, warnings);
  // config-db names git's branch `branch`; here it is `ref`.
  if (type === 'git' && typeof out.branch === 'string') {
    if (out.ref === undefined) out.ref = out.branch;
    delete out.branch;
  }
  if (out.transform !== undefined) out.transform = transform(out.transform, `${where}.transform`, warnings);
  return out;
}
