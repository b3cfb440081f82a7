import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { capabilityError, capabilityUses, missingWithConnections } from '../../platform/auth/capabilities';
import type { Action } from '../../../common/rbac';
import { allows } from '../../platform/auth/decide';
import type { Actor } from '../../platform/auth/types';
import type { AppContext } from '../../platform/context';
import { isRecord } from '../../platform/errors';
import { AppError } from '../../platform/http/errors';
import { route, type HttpMethod } from '../../platform/http/route';
import { zodIssues } from '../../platform/http/validation';
import { labelsMatch, parseLabelSelector } from '../../platform/label-selector';
import { apiVersionOf, kindOf, kubeGroups, qualifiedName, rbacOf, type KubeKind } from './kinds';
import { jsonPatch, mergePatch, PatchError } from './patch';
import { KubeError, asKubeError, statusBody } from './status';
import { metadataNameIssues } from '../../platform/names';
import { age, bodyOf, deleteOptionsDryRun, dryRunOf, forbidden, KUBE_PREFIX, mayAct, notFound, objectOf, requireActor, SOURCE, targetOf, wantsTable, WATCH_POLL_MS, withoutDirectives, type Row } from './api-support';
import { groupOf, namespaces as listNamespaces, openApi, resourceList, table as kubeTable } from './discovery';
import { annotationsToStore as storedAnnotations, pushedRefusals as agentPushRefusals, readRows as readKubeRows } from './rows';

// The routes (here) and what they share (api-support.ts), discovery and Tables (discovery.ts), stored rows (rows.ts).
export { age, KUBE_PREFIX } from './api-support';

export async function kubeRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { pool, log } = ctx;
  /** Open watches, ended when the server closes. */
  const watches = new Set<() => void>();
  app.addHook('onClose', async () => {
    for (const stop of [...watches]) stop();
  });

  const readRows = (kind: KubeKind, where: { namespace?: string; name?: string; metadataOnly?: boolean }, db: Pick<pg.Pool, 'query'> = pool): Promise<Row[]> => readKubeRows(db, kind, where);

  const getRow = async (kind: KubeKind, namespace: string, name: string) => (await readRows(kind, { namespace, name }))[0];
  const annotationsToStore = (kind: KubeKind, given: unknown) => storedAnnotations(pool, kind, given);

  const canonical = async (actor: Actor, kind: KubeKind, namespace: string, name: string, action: Action, verb: string): Promise<Row> => {
    if (!mayAct(actor, kind, action)) throw forbidden(actor, kind, verb, name, namespace);
    const row = await getRow(kind, namespace, name);
    if (!row) throw notFound(kind, name);
    if (!allows(actor, rbacOf(kind, action), action, targetOf(kind, row))) throw forbidden(actor, kind, verb, name, namespace);
    return row;
  };
  const pushedRefusals = (kind: KubeKind, rows: Row[], suffix = '') => agentPushRefusals(pool, kind, rows, suffix);
  const namespaces = () => listNamespaces(pool);
  const table = (kind: KubeKind | undefined, items: Array<Record<string, unknown>>, rows: Row[], includeObject: boolean, resourceVersion: string) => kubeTable(pool, kind, items, rows, includeObject, resourceVersion);

  const answerList = async (req: FastifyRequest, kind: KubeKind | undefined, listKind: string, listApiVersion: string, items: Array<Record<string, unknown>>, rows: Row[]) => {
    const resourceVersion = rows.reduce((max, row) => (BigInt(row.rv) > BigInt(max) ? row.rv : max), '0');
    if (wantsTable(req)) {
      const query = req.query as Record<string, unknown>;
      return table(kind, items, rows, query.includeObject === 'Object', resourceVersion);
    }
    return { apiVersion: listApiVersion, kind: listKind, metadata: { resourceVersion }, items };
  };

  /** The rows a list answers: readable by the caller, matching the label and field selectors. */
  const selectRows = async (req: FastifyRequest, actor: Actor, kind: KubeKind, namespace: string | undefined, metadataOnly = false): Promise<Row[]> => {
    const query = req.query as Record<string, unknown>;
    let rows = (await readRows(kind, { ...(namespace === undefined ? {} : { namespace }), metadataOnly })).filter((row) => allows(actor, rbacOf(kind, 'read'), 'read', targetOf(kind, row)));
    if (typeof query.labelSelector === 'string' && query.labelSelector.trim() !== '') {
      const requirements = parseLabelSelector(query.labelSelector);
      if (!requirements) throw new KubeError('BadRequest', `labelSelector: "${query.labelSelector}" is not a label selector (key=value, key!=value, key in (a,b), key, !key)`);
      rows = rows.filter((row) => labelsMatch(requirements, row.labels ?? {}));
    }
    if (typeof query.fieldSelector === 'string' && query.fieldSelector.trim() !== '') {
      const match = /^metadata\.(name|namespace)(==?|!=)(.*)$/.exec(query.fieldSelector.trim());
      if (!match) throw new KubeError('BadRequest', `fieldSelector: only metadata.name and metadata.namespace are supported (metadata.name=x)`);
      const [, field, op, value] = match;
      rows = rows.filter((row) => ((field === 'name' ? row.name : row.namespace) === value) === (op !== '!='));
    }
    return rows;
  };

  /**
   * `?watch=1` (kubectl get -w): the list polled every WATCH_POLL_MS, each change a JSON line {type:
   * ADDED|MODIFIED|DELETED, object} (a one-row Table when kubectl asks for tables), until timeoutSeconds
   * (at most an hour) or the client goes away.
   */
  const watch = async (req: FastifyRequest, reply: FastifyReply, actor: Actor, kind: KubeKind, namespace: string | undefined) => {
    const query = req.query as Record<string, unknown>;
    const seconds = Math.min(Math.max(Number(query.timeoutSeconds) || 1800, 1), 3600);
    const includeObject = query.includeObject === 'Object';
    const first = await selectRows(req, actor, kind, namespace);
    const stream = new PassThrough();
    const seen = new Map<string, Row>();
    const emit = async (type: 'ADDED' | 'MODIFIED' | 'DELETED', row: Row) => {
      const object = objectOf(kind, row);
      stream.write(`${JSON.stringify({ type, object: wantsTable(req) ? await table(kind, [object], [row], includeObject, row.rv) : object })}\n`);
    };
    const fromStart = query.resourceVersion === undefined || query.resourceVersion === '' || query.resourceVersion === '0';
    for (const row of first) {
      seen.set(row.id, row);
      if (fromStart) await emit('ADDED', row);
    }
    let busy = false;
    const tick = async () => {
      if (busy) return;
      busy = true;
      try {
        const rows = await selectRows(req, actor, kind, namespace);
        const present = new Set<string>();
        for (const row of rows) {
          present.add(row.id);
          const before = seen.get(row.id);
          if (!before || before.rv !== row.rv) await emit(before ? 'MODIFIED' : 'ADDED', row);
          seen.set(row.id, row);
        }
        for (const [id, row] of [...seen]) {
          if (present.has(id)) continue;
          seen.delete(id);
          await emit('DELETED', row);
        }
      } catch (error) {
        req.log.warn({ err: error }, 'a Kubernetes API watch stopped');
        stop();
      } finally {
        busy = false;
      }
    };
    const timer = setInterval(() => void tick(), WATCH_POLL_MS);
    const deadline = setTimeout(() => stop(), seconds * 1000);
    function stop() {
      watches.delete(stop);
      clearInterval(timer);
      clearTimeout(deadline);
      stream.end();
    }
    req.raw.on('close', stop);
    watches.add(stop);
    // Written straight to the socket: each event must reach kubectl as it happens, not once compressed at the end.
    void reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    stream.pipe(reply.raw);
    return reply;
  };

  const list = async (req: FastifyRequest, reply: FastifyReply, kind: KubeKind, namespace: string | undefined) => {
    const actor = requireActor(req);
    if (!mayAct(actor, kind, 'read')) throw forbidden(actor, kind, 'list', undefined, namespace);
    const query = req.query as Record<string, unknown>;
    if (query.watch === 'true' || query.watch === '1') return watch(req, reply, actor, kind, namespace);
    // `kubectl get` asks for a Table of metadata: no spec needed unless a column or the object builder reads it.
    const metadataOnly = wantsTable(req) && query.includeObject !== 'Object' && !kind.columns?.length && !kind.specOf;
    const rows = await selectRows(req, actor, kind, namespace, metadataOnly);
    return answerList(req, kind, `${kind.kind}List`, apiVersionOf(kind), rows.map((row) => objectOf(kind, row)), rows);
  };

  /** Checks a document and saves it with `apply`'s own schema and save (source KubernetesCRD). */
  const write = async (req: FastifyRequest, reply: FastifyReply, kind: KubeKind, namespace: string, urlName: string | undefined, document: unknown, mode: 'create' | 'replace' | 'patch') => {
    const actor = requireActor(req);
    const dryRun = dryRunOf(req);
    const action: Action = mode === 'create' ? 'create' : 'update';
    const verb = mode === 'create' ? 'create' : mode === 'replace' ? 'update' : 'patch';
    if (!isRecord(document)) throw new KubeError('BadRequest', 'the body must be an object with apiVersion, kind, metadata and spec');
    const metadata = isRecord(document.metadata) ? document.metadata : {};
    const name = typeof metadata.name === 'string' ? metadata.name : undefined;
    const invalid = (field: string, message: string) =>
      new KubeError('Invalid', `${kind.kind} "${name ?? urlName ?? ''}" is invalid: ${field}: ${message}`, { ...(name ? { name } : {}), group: kind.group, kind: kind.kind, causes: [{ field, message, reason: 'FieldValueInvalid' }] });
    if (!name) throw invalid('metadata.name', 'Required value: name is required');
    if (urlName !== undefined && name !== urlName) throw new KubeError('BadRequest', `the name of the object (${name}) does not match the name on the URL (${urlName})`);
    if (kind.namespaced && metadata.namespace !== undefined && metadata.namespace !== namespace) throw new KubeError('BadRequest', `the namespace of the provided object (${String(metadata.namespace)}) does not match the namespace sent on the request (${namespace})`);
    const apiVersion = apiVersionOf(kind);
    if (document.apiVersion !== undefined && document.apiVersion !== apiVersion) throw invalid('apiVersion', `must be ${apiVersion}`);
    if (document.kind !== undefined && document.kind !== kind.kind) throw invalid('kind', `must be ${kind.kind}`);

    if (!mayAct(actor, kind, action)) throw forbidden(actor, kind, verb, name, namespace);
    // Names are valid UTF-8 and DNS-1123 for every kind (server/platform/names.ts), as Kubernetes refuses them.
    const nameIssues = metadataNameIssues({ name, ...(kind.namespaced ? { namespace } : {}) });
    if (nameIssues.length > 0) {
      throw new KubeError('Invalid', `${kind.kind} ${JSON.stringify(name)} is invalid: ${nameIssues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}`, {
        name,
        group: kind.group,
        kind: kind.kind,
        causes: nameIssues.map((issue) => ({ field: issue.path, message: issue.message, reason: 'FieldValueInvalid' })),
      });
    }
    const existing = await getRow(kind, namespace, name);
    if (mode === 'create' && existing) throw new KubeError('AlreadyExists', `${qualifiedName(kind)} "${name}" already exists`, { name, group: kind.group, kind: kind.plural });
    if (mode !== 'create' && !existing) throw notFound(kind, name);
    if (existing && !allows(actor, rbacOf(kind, action), action, targetOf(kind, existing))) throw forbidden(actor, kind, verb, name, namespace);
    if (existing?.source === 'Upstream') throw new KubeError('Conflict', `${qualifiedName(kind)} "${name}" comes from the upstream server (read-only on an agent): change it there`);
    if (mode === 'replace' && isRecord(document.metadata) && typeof document.metadata.resourceVersion === 'string' && existing && document.metadata.resourceVersion !== existing.rv) {
      throw new KubeError('Conflict', `Operation cannot be fulfilled on ${qualifiedName(kind)} "${name}": the object has been modified; please apply your changes to the latest version and try again`, { name, group: kind.group, kind: kind.plural });
    }

    const labels = isRecord(metadata.labels) ? metadata.labels : {};
    // Secret and ConfigMap carry their fields beside metadata (type, data, stringData, …); the others a spec.
    const fields = kind.topLevel ? Object.fromEntries(Object.entries(document).filter(([key]) => !['apiVersion', 'kind', 'metadata', 'status'].includes(key))) : { spec: document.spec };
    const clean: Record<string, unknown> = { apiVersion, kind: kind.kind, metadata: { name, ...(kind.namespaced ? { namespace } : {}), labels }, ...fields };
    if (existing && kind.prepare) await kind.prepare(pool, existing.id, clean);
    const annotations = await annotationsToStore(kind, metadata.annotations);
    const parsed = kind.resourceKind.schema.safeParse(clean);
    if (!parsed.success) {
      const issues = zodIssues(parsed.error);
      throw new KubeError('Invalid', `${kind.kind} "${name}" is invalid: ${issues.map((issue) => `${issue.path || '(document)'}: ${issue.message}`).join('; ')}`, {
        name,
        group: kind.group,
        kind: kind.kind,
        causes: issues.map((issue) => ({ field: issue.path, message: issue.message, reason: 'FieldValueInvalid' })),
      });
    }
    // Capabilities (docs/SECURITY.md): a spec that runs code, reads server files or uses a connection needs its author to hold them.
    const missing = kind.topLevel ? [] : await missingWithConnections(pool, actor, capabilityUses(clean.spec), namespace);
    if (missing.length > 0) {
      throw new KubeError('Forbidden', `${kind.kind} "${name}": ${capabilityError(missing).message}`, { name, group: kind.group, kind: kind.plural });
    }
    // The save runs in one transaction; a dry run (`kubectl apply --dry-run=server`) rolls it back after
    // reading what it would have written, so every check of the save runs and nothing stays.
    let outcome;
    let row: Row | undefined;
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      outcome = await kind.resourceKind.apply(parsed.data, { client, source: SOURCE, log, actor });
      if (Object.keys(annotations).length > 0) {
        await client.query(
          `INSERT INTO kube_annotations (resource_id, kind, annotations) VALUES ($1, $2, $3)
           ON CONFLICT (resource_id) DO UPDATE SET kind = EXCLUDED.kind, annotations = EXCLUDED.annotations, updated_at = now()`,
          [outcome.id, kind.kind, JSON.stringify(annotations)],
        );
      } else await client.query('DELETE FROM kube_annotations WHERE resource_id = $1', [outcome.id]);
      row = (await readRows(kind, { namespace, name }, client))[0];
      await client.query(dryRun ? 'ROLLBACK' : 'COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      if (error instanceof AppError && error.code !== 'internal_error') {
        throw new KubeError(error.code === 'conflict' ? 'Conflict' : error.code === 'forbidden' ? 'Forbidden' : 'Invalid', `${kind.kind} "${name}": ${error.message}`, { name, group: kind.group, kind: kind.kind });
      }
      // A save's own refusal (a name taken by the console, a spec problem found while saving) is a plain Error
      // with a message for the user; a database error carries a code and stays in the log.
      if (error instanceof Error && !('code' in error)) throw new KubeError('Invalid', `${kind.kind} "${name}" is invalid: ${error.message}`, { name, group: kind.group, kind: kind.kind });
      throw error;
    } finally {
      client.release();
    }
    const warnings = (outcome.warnings ?? []).map((warning) => `299 - ${JSON.stringify(warning.replace(/[^\x20-\x7e]/g, '?'))}`);
    if (warnings.length > 0) void reply.header('Warning', warnings);
    if (!dryRun) req.log.info({ kind: kind.kind, namespace, name, action: outcome.action, via: 'kubectl' }, `${kind.kind} ${namespace}/${name} ${outcome.action} through the Kubernetes API`);
    if (!row) throw notFound(kind, name);
    return reply.status(mode === 'create' ? 201 : 200).send(objectOf(kind, row));
  };

  const remove = async (req: FastifyRequest, kind: KubeKind, namespace: string, name: string) => {
    const actor = requireActor(req);
    const row = await canonical(actor, kind, namespace, name, 'delete', 'delete');
    const pushed = (await pushedRefusals(kind, [row]))[0];
    if (pushed) throw pushed;
    if (row.source === 'Upstream') throw new KubeError('Conflict', `${qualifiedName(kind)} "${name}" comes from the upstream server (read-only on an agent): delete it there`);
    if (row.source !== SOURCE && row.source !== 'UI' && !actor.roles.includes('admin')) {
      throw new KubeError('Conflict', `${qualifiedName(kind)} "${name}" comes from ${row.source}: delete it there (or ask an admin)`);
    }
    if (dryRunOf(req) || deleteOptionsDryRun(req)) return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name, group: kind.group, kind: kind.plural, uid: row.id } };
    await kind.remove(pool, row.id);
    await pool.query('DELETE FROM kube_annotations WHERE resource_id = $1', [row.id]);
    req.log.info({ kind: kind.kind, namespace, name, via: 'kubectl' }, `${kind.kind} ${namespace}/${name} deleted through the Kubernetes API`);
    return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name, group: kind.group, kind: kind.plural, uid: row.id } };
  };

  const patch = async (req: FastifyRequest, reply: FastifyReply, kind: KubeKind, namespace: string, name: string) => {
    const actor = requireActor(req);
    const type = String(req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type === 'application/apply-patch+yaml') {
      // Server-side apply (`kubectl apply --server-side`): the object is created when missing, else the fields
      // it gives replace the stored ones (a merge patch). Field managers are not tracked: a field left out
      // of the file stays (docs/KUBECTL.md).
      const body = bodyOf(req);
      if (!(await getRow(kind, namespace, name))) return write(req, reply, kind, namespace, name, body, 'create');
      const row = await canonical(actor, kind, namespace, name, 'update', 'patch');
      return write(req, reply, kind, namespace, name, mergePatch(objectOf(kind, row), withoutDirectives(body)), 'patch');
    }
    const row = await canonical(actor, kind, namespace, name, 'update', 'patch');
    const current = objectOf(kind, row);
    const body = bodyOf(req);
    let next: unknown;
    try {
      if (type === 'application/json-patch+json') next = jsonPatch(current, body);
      else if (type === 'application/merge-patch+json') next = mergePatch(structuredClone(current), body);
      else if (type === 'application/strategic-merge-patch+json') next = mergePatch(structuredClone(current), withoutDirectives(body));
      else throw new KubeError('UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml`);
    } catch (error) {
      if (error instanceof PatchError) throw new KubeError('Invalid', `the patch cannot be applied: ${error.message}`, { name, group: kind.group, kind: kind.kind });
      throw error;
    }
    return write(req, reply, kind, namespace, name, next, 'patch');
  };

  /** `kubectl get namespaces` (a list or a Table) and `kubectl get namespace NAME`. */
  const namespaceAnswer = async (req: FastifyRequest, name: string | undefined) => {
    const all = await namespaces();
    if (name !== undefined) {
      const found = all.find((item) => item.metadata.name === name);
      if (!found) throw new KubeError('NotFound', `namespaces "${name}" not found`, { name, kind: 'namespaces' });
      return found;
    }
    if (wantsTable(req)) {
      return {
        kind: 'Table',
        apiVersion: 'meta.k8s.io/v1',
        metadata: { resourceVersion: '0' },
        columnDefinitions: [
          { name: 'Name', type: 'string', format: 'name', description: 'metadata.name', priority: 0 },
          { name: 'Status', type: 'string', format: '', description: 'status.phase', priority: 0 },
          { name: 'Age', type: 'string', format: '', description: 'since the first resource in it was created', priority: 0 },
        ],
        rows: all.map((item) => ({ cells: [item.metadata.name, 'Active', age(new Date(item.metadata.creationTimestamp))], object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: item.metadata } })),
      };
    }
    return { apiVersion: 'v1', kind: 'NamespaceList', metadata: { resourceVersion: '0' }, items: all };
  };

  /**
   * deletecollection (DELETE on a list, with its label and field selectors): every selected object is
   * checked first (permission, pushed up by an agent, source) and nothing is deleted when one is refused;
   * answers the deleted list.
   */
  const removeCollection = async (req: FastifyRequest, kind: KubeKind, namespace: string | undefined) => {
    const actor = requireActor(req);
    if (!mayAct(actor, kind, 'delete')) throw forbidden(actor, kind, 'deletecollection', undefined, namespace);
    const dryRun = dryRunOf(req) || deleteOptionsDryRun(req);
    const rows = await selectRows(req, actor, kind, namespace);
    for (const row of rows) {
      if (!allows(actor, rbacOf(kind, 'delete'), 'delete', targetOf(kind, row))) throw forbidden(actor, kind, 'delete', row.name, row.namespace);
    }
    const pushed = (await pushedRefusals(kind, rows, '; nothing was deleted'))[0];
    if (pushed) throw pushed;
    for (const row of rows) {
      if (row.source === 'Upstream' || (row.source !== SOURCE && row.source !== 'UI' && !actor.roles.includes('admin'))) {
        throw new KubeError('Conflict', `${qualifiedName(kind)} "${row.name}" comes from ${row.source}: delete it there${row.source === 'Upstream' ? '' : ' (or ask an admin)'}; nothing was deleted`);
      }
    }
    if (!dryRun) {
      for (const row of rows) {
        await kind.remove(pool, row.id);
        await pool.query('DELETE FROM kube_annotations WHERE resource_id = $1', [row.id]);
      }
      req.log.info({ kind: kind.kind, namespace, count: rows.length, via: 'kubectl' }, `${rows.length} ${kind.plural} deleted through the Kubernetes API`);
    }
    return { apiVersion: apiVersionOf(kind), kind: `${kind.kind}List`, metadata: {}, items: rows.map((row) => objectOf(kind, row)) };
  };

  const handle = async (req: FastifyRequest, reply: FastifyReply) => {
    const method = req.method;
    const path = (req.params as Record<string, string>)['*'] ?? '';
    const parts = path.split('?')[0]?.split('/').filter(Boolean).map(decodeURIComponent) ?? [];
    const unknown = () => new KubeError('NotFound', 'the server could not find the requested resource', {});
    const onlyGet = () => {
      if (method !== 'GET') throw new KubeError('MethodNotAllowed', `${method} is not allowed here`);
    };
    // /version is public, as on a Kubernetes API server (kubectl wrappers ask it before sending credentials).
    if (parts.length === 1 && parts[0] === 'version') {
      onlyGet();
      return { major: '1', minor: '32', gitVersion: 'v1.32.0-watchkeeper', platform: 'linux/amd64' };
    }
    requireActor(req);

    if (parts[0] === 'openapi') {
      onlyGet();
      return openApi(parts.slice(1));
    }
    let group: string;
    let rest: string[];
    if (parts[0] === 'api') {
      if (parts.length === 1) {
        onlyGet();
        return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '' }] };
      }
      if (parts[1] !== 'v1') throw unknown();
      if (parts.length === 2) {
        onlyGet();
        return resourceList('', 'v1');
      }
      if (parts[2] === 'namespaces' && parts.length <= 4) {
        onlyGet();
        return namespaceAnswer(req, parts[3]);
      }
      group = '';
      rest = parts.slice(2);
    } else if (parts[0] === 'apis') {
      if (parts.length === 1) {
        onlyGet();
        return { kind: 'APIGroupList', apiVersion: 'v1', groups: kubeGroups().map(groupOf) };
      }
      group = parts[1] ?? '';
      if (!kubeGroups().includes(group)) throw unknown();
      if (parts.length === 2) {
        onlyGet();
        return groupOf(group);
      }
      if (parts[2] !== 'v1') throw unknown();
      if (parts.length === 3) {
        onlyGet();
        return resourceList(group, 'v1');
      }
      rest = parts.slice(3);
    } else throw unknown();

    // …/R (every namespace) or …/namespaces/NS/R[/NAME]
    let namespace: string | undefined;
    if (rest[0] === 'namespaces' && rest.length >= 3) {
      namespace = rest[1];
      rest = rest.slice(2);
    }
    const kind = kindOf(group, rest[0] ?? '');
    if (!kind || rest.length > 2) throw unknown();
    // A cluster-scoped kind (Team) has no namespace: its rows read as `default`.
    if (!kind.namespaced) namespace = undefined;
    const name = rest[1];
    if (name === undefined) {
      if (method === 'GET') return list(req, reply, kind, namespace);
      if (method === 'POST' && namespace !== undefined) return write(req, reply, kind, namespace, undefined, bodyOf(req), 'create');
      if (method === 'POST') {
        const body = bodyOf(req);
        const ns = kind.namespaced && isRecord(body) && isRecord(body.metadata) && typeof body.metadata.namespace === 'string' ? body.metadata.namespace : 'default';
        return write(req, reply, kind, ns, undefined, body, 'create');
      }
      if (method === 'DELETE') return removeCollection(req, kind, namespace);
      throw new KubeError('MethodNotAllowed', `${method} is not supported on a list of ${kind.plural}`);
    }
    const ns = namespace ?? 'default';
    switch (method) {
      case 'GET': {
        const row = await canonical(requireActor(req), kind, ns, name, 'read', 'get');
        const object = objectOf(kind, row);
        if (wantsTable(req)) return table(kind, [object], [row], (req.query as Record<string, unknown>).includeObject === 'Object', row.rv);
        return object;
      }
      case 'PUT':
        return write(req, reply, kind, ns, name, bodyOf(req), 'replace');
      case 'PATCH':
        return patch(req, reply, kind, ns, name);
      case 'DELETE':
        return remove(req, kind, ns, name);
      default:
        throw new KubeError('MethodNotAllowed', `${method} is not allowed here`);
    }
  };

  await app.register(async (scope) => {
    // kubectl sends JSON, YAML and patch media types: every body is read as text and parsed here, so a bad
    // one is answered as a Kubernetes Status like every other error.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    scope.setErrorHandler((error, req, reply) => {
      const kubeError = asKubeError(error);
      if (kubeError.code >= 500) req.log.error({ err: error }, 'Kubernetes API request failed');
      void reply.status(kubeError.code).type('application/json').send(statusBody(kubeError));
    });
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as HttpMethod[]) {
      route(scope, {
        method,
        url: `${KUBE_PREFIX}/*`,
        summary: 'The Kubernetes-style API for kubectl (docs/KUBECTL.md): discovery, namespaces, list/get/create/replace/patch/delete of stored kinds',
        tags: ['kubernetes'],
        access: 'self-checked',
        handler: ({ req, reply }) => handle(req, reply),
      });
    }
  });
}
