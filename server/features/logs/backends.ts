import { CAPABILITY_REQUIRED, capabilityUses, runRefusal } from '../../platform/auth/capabilities';
import path from 'node:path';
import type pg from 'pg';
import { AppError, ValidationError } from '../../platform/http/errors';
import { specRowKind, type SpecRowTable } from '../../platform/spec-rows';
import { expandPaths } from '../catalog';
import type { LogFile } from './search';
import { fileAllowed, pathRefusal, rootProblems } from './roots';
import { parseLogBackendSpec, type LogBackendSpec } from './spec';

/** logging_backends as a spec row table (Settings → Log Backends, `apply -f`, the watched folder). */
export const LOG_BACKENDS: SpecRowTable = {
  table: 'logging_backends',
  noun: 'log backend',
  // The shape first; then each path must be under a log root (WATCHKEEPER_LOG_ROOTS) and not in the data directory.
  problems: (spec) => {
    const parsed = parseLogBackendSpec(spec);
    return parsed.spec ? rootProblems(parsed.spec) : parsed.errors;
  },
};

/** `kind: LogBackend`. */
export const logBackendKind = specRowKind(LOG_BACKENDS, {
  kind: 'LogBackend',
  apiVersions: ['watchkeeper.dev/v1', 'mission-control.flanksource.com/v1'],
});

export interface Backend {
  id: string;
  name: string;
  spec: LogBackendSpec;
}

export interface ComponentRef {
  id: string;
  name: string;
  type: string | null;
}

/** What one search reads: the backends, and the component whose logs they are (if one was asked for). */
export interface SearchTarget {
  backends: Backend[];
  component?: ComponentRef;
}

async function loadBackends(pool: pg.Pool, where: string, values: unknown[]): Promise<Backend[]> {
  const { rows } = await pool.query<{ id: string; name: string; namespace: string; spec: unknown; updated_by: string | null }>(
    `SELECT id, name, namespace, spec, updated_by FROM logging_backends WHERE deleted_at IS NULL AND ${where} ORDER BY name`,
    values,
  );
  // Capabilities (docs/SECURITY.md): a backend reads the server's files only while its last author holds server_files.
  for (const row of rows) {
    const refusal = await runRefusal(pool, row.updated_by, capabilityUses(row.spec), row.namespace);
    if (refusal) throw new AppError('forbidden', `log backend ${row.name}: ${refusal.message}`, { error: CAPABILITY_REQUIRED, backend: row.name });
  }
  return rows.flatMap((row) => {
    const parsed = parseLogBackendSpec(row.spec);
    return parsed.spec ? [{ id: row.id, name: row.name, spec: parsed.spec }] : [];
  });
}

/**
 * Spec §7 POST /logs {name, id, query}: `id` is a component (its backends, from components_with_logs),
 * `name` a backend (by name, or narrowing a component's to that one).
 */
export async function resolveTarget(pool: pg.Pool, request: { id?: string | undefined; name?: string | undefined }): Promise<SearchTarget> {
  if (request.id) {
    const { rows } = await pool.query<ComponentRef & { logs: Array<{ id: string; name: string }> | null }>(
      `SELECT c.id, c.name, c.type, w.logs FROM components c LEFT JOIN components_with_logs w ON w.id = c.id WHERE c.id = $1 AND c.deleted_at IS NULL`,
      [request.id],
    );
    const component = rows[0];
    if (!component) throw new AppError('not_found', `component ${request.id} not found`);
    const ids = (component.logs ?? []).filter((log) => !request.name || log.name === request.name).map((log) => log.id);
    if (ids.length === 0) {
      throw new AppError('not_found', request.name ? `the log backend "${request.name}" holds no logs of ${component.name}` : `no log backend holds the logs of ${component.name}`);
    }
    return { backends: await loadBackends(pool, 'id = ANY($1::uuid[])', [ids]), component: { id: component.id, name: component.name, type: component.type } };
  }
  if (!request.name) throw new ValidationError([{ path: 'body.name', message: 'give a log backend name, or a component id (id) whose logs to search' }]);
  const backends = await loadBackends(pool, 'name = $1', [request.name]);
  if (backends.length === 0) throw new AppError('not_found', `log backend "${request.name}" not found`);
  return { backends };
}

/** A component's name or type as one path segment: anything but letters, digits, '.', '_' and '-' becomes '_'. */
function segment(value: string | null | undefined): string {
  const safe = (value ?? '').replace(/[^A-Za-z0-9._-]/g, '_');
  return safe === '' || /^\.+$/.test(safe) ? '_' : safe;
}

/**
 * The files a target's backends name; `{{name}}` / `{{type}}` are the component's, or `*` without one.
 * Only under the log roots (roots.ts): a path or glob outside them (a row saved before, or roots changed
 * since) is not even listed, and a file whose real path is outside (a symlink) or in the data directory is
 * left out; `refused` collects what was left out and why.
 */
export async function targetFiles(target: SearchTarget, signal: AbortSignal, refused: string[] = []): Promise<LogFile[]> {
  const files = new Map<string, LogFile>();
  for (const backend of target.backends) {
    for (const source of backend.spec.files) {
      const patterns = source.paths
        .filter((pattern) => {
          const why = pathRefusal(pattern);
          if (why) refused.push(`${backend.name}: ${why}`);
          return why === undefined;
        })
        .map((pattern) =>
          pattern.replace(/\{\{\s*\.?(name|type)\s*\}\}/g, (_, key: string) => (target.component ? segment(key === 'name' ? target.component.name : target.component.type) : '*')),
        );
      if (patterns.length === 0) continue;
      const { files: found } = await expandPaths(patterns, process.cwd(), signal);
      for (const file of found) {
        const absolute = path.resolve(file);
        if (files.has(absolute)) continue;
        if (!(await fileAllowed(absolute))) {
          refused.push(`${absolute}: not read (its real path is outside the log roots, or in the data directory)`);
          continue;
        }
        files.set(absolute, { path: absolute, labels: { backend: backend.name, ...(source.labels ?? {}) } });
      }
    }
  }
  return [...files.values()];
}
