import fs from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import { parseAllDocuments } from 'yaml';
import { z } from 'zod';
import { zodIssues } from './http/validation';
import type { Logger } from './logger';
import { isRecord, messageOf } from './errors';
import type { Actor } from './auth/types';
import { documentName, documentNamespace, metadataNameIssues } from './names';

/** Where a resource came from (DESIGN §4 `source`). */
export type ResourceSource = 'UI' | 'KubernetesCRD' | 'ConfigFile' | 'Push' | 'Topology' | 'System' | 'Upstream';
/** Rows an agent pulled from its upstream (docs/AGENTS.md): read-only on the agent, changed only upstream. */
export const UPSTREAM_SOURCE = 'Upstream';

/** A spec problem's dotted path (`spec.http[0].url`) as zod path segments, for a kind's schema issues. */
export function problemPathSegments(path: string): Array<string | number> {
  return path.split(/\.|(?=\[)/).map((part) => (/^\[\d+\]$/.test(part) ? Number(part.slice(1, -1)) : part));
}

export interface ApplyContext {
  /** A client inside the document's own transaction: everything or nothing of a document is written. */
  client: pg.PoolClient;
  source: ResourceSource;
  log: Logger;
  /**
   * The person applying it (kubectl), recorded as the spec's author (`updated_by`, docs/SECURITY.md); none
   * for files and the system.
   */
  actor?: Actor;
}

export interface ApplyOutcome {
  action: 'created' | 'updated' | 'unchanged';
  id: string;
  name: string;
  /** Fields we read but do not support yet: reported, never silently dropped. */
  warnings?: string[];
}

/** One declarative kind (Canary, ScrapeConfig, Playbook, …), registered by the feature that owns it. */
export interface ResourceKind<T = unknown> {
  kind: string;
  apiVersions: string[];
  schema: z.ZodType<T>;
  apply(document: T, ctx: ApplyContext): Promise<ApplyOutcome>;
}

/** The Flanksource document every spec kind shares: apiVersion, kind, metadata (name, namespace, labels) and spec. */
export function specDocumentSchema(kind: string, problems: (spec: Record<string, unknown>, metadata: { name: string; namespace: string }) => Array<{ path: string; message: string }>) {
  return z
    .object({
      apiVersion: z.string(),
      kind: z.literal(kind),
      metadata: z.object({
        // Names are valid UTF-8 and DNS-1123 (docs/RESOURCES.md "Names"): a subdomain, the namespace a label.
        // Uppercase alone is the caller's to judge: `apply` warns (other tools' files), the Kubernetes API refuses.
        name: documentName,
        namespace: documentNamespace.optional(),
        labels: z.record(z.string(), z.string()).optional(),
        annotations: z.record(z.string(), z.string()).optional(),
      }),
      spec: z.record(z.string(), z.unknown()),
    })
    .superRefine((doc, ctx) => {
      // Every problem is reported with its path (spec.http[0].url: is required), nothing written.
      for (const problem of problems(doc.spec, { name: doc.metadata.name, namespace: doc.metadata.namespace ?? 'default' })) {
        ctx.addIssue({ code: 'custom', path: problemPathSegments(problem.path), message: problem.message });
      }
    });
}
export type SpecDocument = z.infer<ReturnType<typeof specDocumentSchema>>;

/** What a spec kind's save function answers. */
export interface SavedSpecResource {
  id: string;
  action: ApplyOutcome['action'];
  warnings: string[];
}

/**
 * A kind whose documents are `metadata` + `spec` saved by one function (Canary, ScrapeConfig, Topology):
 * the whole spec checked first, every problem by path, then saved in the document's transaction.
 */
export function specResourceKind(options: {
  kind: string;
  apiVersions: string[];
  problems: Parameters<typeof specDocumentSchema>[1];
  save: (
    client: pg.PoolClient,
    input: { name: string; namespace: string; labels: Record<string, string>; spec: Record<string, unknown>; source: ResourceSource; createdBy?: string | undefined },
  ) => Promise<SavedSpecResource>;
}): ResourceKind<SpecDocument> {
  return {
    kind: options.kind,
    apiVersions: options.apiVersions,
    schema: specDocumentSchema(options.kind, options.problems),
    async apply(doc, { client, source, actor }) {
      const saved = await options.save(client, { name: doc.metadata.name, namespace: doc.metadata.namespace ?? 'default', labels: doc.metadata.labels ?? {}, spec: doc.spec, source, createdBy: actor?.id });
      return { action: saved.action, id: saved.id, name: doc.metadata.name, ...(saved.warnings.length > 0 ? { warnings: saved.warnings } : {}) };
    },
  };
}

export interface DocumentInput {
  /** File name, or '-' for standard input. */
  file: string;
  text: string;
}

export interface DocumentResult {
  file: string;
  /** 1-based position of the document in its file. */
  index: number;
  kind?: string;
  name?: string;
  ok: boolean;
  outcome?: ApplyOutcome;
  /** Problems, each `path: message` (the path is the field path inside the document). */
  errors: string[];
}

const RESOURCE_EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

/** Reads FILE, every resource file under DIR (recursively, sorted), or standard input for '-'. */
export async function readInputs(target: string, stdin: () => Promise<string>): Promise<DocumentInput[]> {
  if (target === '-') return [{ file: '-', text: await stdin() }];
  let stat;
  try {
    stat = await fs.stat(target);
  } catch {
    throw new Error(`${target}: no such file or directory`);
  }
  if (stat.isFile()) return [{ file: target, text: await fs.readFile(target, 'utf8') }];
  const files: string[] = [];
  const walk = async (dir: string) => {
    for (const entry of (await fs.readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (RESOURCE_EXTENSIONS.has(path.extname(entry.name).toLowerCase())) files.push(full);
    }
  };
  await walk(target);
  return Promise.all(files.map(async (file) => ({ file, text: await fs.readFile(file, 'utf8') })));
}

function describeKinds(kinds: ResourceKind[]): string {
  return kinds.length === 0 ? 'none is registered yet' : `known kinds: ${kinds.map((k) => k.kind).sort().join(', ')}`;
}

/**
 * Applies multi-document YAML. Each document is validated against its kind's schema and written in its
 * own transaction; an unknown kind or an invalid document is reported with file, index and field path,
 * and nothing of it is written. Other documents still apply.
 */
export async function applyDocuments(
  pool: pg.Pool,
  kinds: ResourceKind[],
  inputs: DocumentInput[],
  source: ResourceSource,
  log: Logger,
): Promise<DocumentResult[]> {
  const byKind = new Map(kinds.map((kind) => [kind.kind, kind]));
  const results: DocumentResult[] = [];
  for (const input of inputs) {
    const documents = parseAllDocuments(input.text);
    const list = Array.isArray(documents) ? documents : [documents];
    let index = 0;
    for (const document of list) {
      index += 1;
      const result: DocumentResult = { file: input.file, index, ok: false, errors: [] };
      results.push(result);
      if (document.errors.length > 0) {
        result.errors = document.errors.map((error) => {
          const line = error.linePos?.[0];
          return `${line ? `line ${line.line}, column ${line.col}: ` : ''}${error.message.split('\n')[0]}`;
        });
        continue;
      }
      const value: unknown = document.toJS();
      if (value === null || value === undefined) {
        index -= 1; // an empty document (a trailing ---) is not a document
        results.pop();
        continue;
      }
      if (!isRecord(value)) {
        result.errors = ['the document is not a mapping with apiVersion, kind, metadata and spec'];
        continue;
      }
      const record = value;
      const kindName = record.kind;
      const metadata = record.metadata;
      if (metadata && typeof metadata === 'object' && 'name' in metadata && typeof metadata.name === 'string') result.name = metadata.name;
      if (typeof kindName !== 'string' || kindName === '') {
        result.errors = ['kind: is required'];
        continue;
      }
      result.kind = kindName;
      const kind = byKind.get(kindName);
      if (!kind) {
        result.errors = [`kind: "${kindName}" is not a known kind (${describeKinds(kinds)})`];
        continue;
      }
      const apiVersion = record.apiVersion;
      if (typeof apiVersion !== 'string' || !kind.apiVersions.includes(apiVersion)) {
        result.errors = [`apiVersion: ${JSON.stringify(apiVersion ?? null)} is not accepted for ${kindName}; use ${kind.apiVersions.join(' or ')}`];
        continue;
      }
      // Every kind's names follow one rule (server/platform/names.ts), whether or not its own schema says so.
      // A name whose only fault is uppercase (files written for other tools: canary-checker's `HTTP`
      // connections) applies with a warning; anything else (invalid UTF-8, spaces, …) is refused.
      const nameIssues = metadataNameIssues(record.metadata);
      const refusedNames = nameIssues.filter((issue) => !issue.uppercaseOnly);
      if (refusedNames.length > 0) {
        result.errors = refusedNames.map((issue) => `${issue.path}: ${issue.message}`);
        continue;
      }
      const nameWarnings = nameIssues.map((issue) => `${issue.path}: ${issue.message}; applied as written from this file (the Kubernetes API and the console refuse it)`);
      const parsed = kind.schema.safeParse(value);
      if (!parsed.success) {
        result.errors = zodIssues(parsed.error).map((issue) => `${issue.path || '(document)'}: ${issue.message}`);
        continue;
      }
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const outcome = await kind.apply(parsed.data, { client, source, log });
        result.outcome = nameWarnings.length > 0 ? { ...outcome, warnings: [...nameWarnings, ...(outcome.warnings ?? [])] } : outcome;
        await client.query('COMMIT');
        result.ok = true;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        result.errors = [messageOf(error)];
      } finally {
        client.release();
      }
    }
  }
  return results;
}

export function formatResult(result: DocumentResult): string {
  const where = `${result.file} document ${result.index}${result.kind ? ` (${result.kind}${result.name ? ` ${result.name}` : ''})` : ''}`;
  if (result.ok && result.outcome) {
    const warnings = (result.outcome.warnings ?? []).map((warning) => `\n  warning: ${warning}`).join('');
    return `${where}: ${result.outcome.action}${warnings}`;
  }
  return `${where}: not applied\n${result.errors.map((error) => `  - ${error}`).join('\n')}`;
}

/** Fields of an upstream format that are read but not run yet, each with why (docs/RESOURCES.md). */
export type UnrunFields = Record<string, string>;

/**
 * `raw` without its fields that are not run yet: each one found is a warning naming it and why
 * (`${where}.${key}: ${reason}; ignored`), never a refusal and never dropped in silence.
 */
export function withoutUnrun(raw: Record<string, unknown>, where: string, unrun: UnrunFields, warnings: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    const reason = Object.hasOwn(unrun, key) ? unrun[key] : undefined;
    if (reason === undefined) out[key] = value;
    else warnings.push(`${where}.${key}: ${reason}; ignored`);
  }
  return out;
}
