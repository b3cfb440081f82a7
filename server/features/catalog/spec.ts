import { z } from 'zod';
import { isRecord } from '../../platform/errors';
import { celFieldProblems } from '../../platform/expressions';
import { isAtRunIssue } from '../../platform/http/validation';
import { parseDuration, parseSchedule, ScheduleError } from '../../platform/jobs/schedule';
import { mappingShape, type Mapping } from './mapping';
import { SOURCES } from './sources';
import { upstreamEntry } from './upstream';
import type { AnySource } from './types';

/** Spec §1 defaults: scrapers run hourly; a schedule more often than every 30 s is refused. */
export const DEFAULT_SCHEDULE = '@hourly';
export const MIN_SCHEDULE_MILLIS = 30_000;
/** Items a source stops returning are deleted (STALE) once they have not been seen for this long. */
export const DEFAULT_STALE_MILLIS = 24 * 3_600_000;

/** config-db scraper types this console does not read (yet): reported by name, never silently ignored. */
const UNSUPPORTED_TYPES = [
  'kubernetes', 'aws', 'azure', 'azureDevops', 'gcp', 'githubActions', 'slack', 'terraform', 'trivy', 'clickhouse', 'logs', 'pubsub',
  'http2', 'openSearch', 'kubernetesProxy', 'system', 'github', 'githubSecurity', 'openssf', 'playwright', 'postgres', 'ical', 'azureAD',
];
const SPEC_FIELDS = ['schedule', 'retention', 'full'];
/** ScraperSpec fields other than scraper types that are read but not run. */
const IGNORED_SPEC_FIELDS: Record<string, string> = {
  logLevel: 'the scraper reports to the job history at its own level',
  crdSync: 'scrapers are not written back as Kubernetes resources',
};

export interface SpecProblem {
  path: string;
  message: string;
}

export interface ScraperEntry {
  source: AnySource;
  /** Where it is in the spec, for messages: spec.file[0]. */
  where: string;
  entry: Record<string, unknown>;
  /** The entry as written: read again at each run once its secrets and connections are resolved. */
  raw: unknown;
  mapping: Mapping;
  /** Set when the entry names what cannot be read yet (see Issue.atRun): each run fails the entry with it. */
  unreadable?: string;
}

export interface ParsedScraper {
  schedule: string | null;
  staleMillis: number;
  /**
   * config-db's full form: each result is a document with `config` (the item), `changes`, `analysis` and
   * access data (external_users, config_access, access_logs …, see access.ts).
   */
  full: boolean;
  entries: ScraperEntry[];
  errors: SpecProblem[];
  warnings: string[];
}

const retentionSchema = z
  .object({
    staleItemAge: z.string().optional(),
    changes: z.array(z.object({ name: z.string(), age: z.string().optional(), count: z.number().int().positive().optional() }).passthrough()).optional(),
    types: z.array(z.record(z.string(), z.unknown())).optional(),
  })
  .strict();

/**
 * A spec's schedule (cron, @every, @hourly, … or @never for null), its default when absent; a schedule
 * more often than `minMillis` is refused, naming what runs (scraper, topology).
 */
export function scheduleOf(raw: unknown, errors: SpecProblem[], options: { fallback: string; minMillis: number; what: string } = { fallback: DEFAULT_SCHEDULE, minMillis: MIN_SCHEDULE_MILLIS, what: 'scraper' }): string | null {
  if (raw === undefined || raw === null || raw === '') return options.fallback;
  if (typeof raw !== 'string') {
    errors.push({ path: 'spec.schedule', message: 'must be a text such as "@every 30m", "@hourly", a cron expression or "@never"' });
    return null;
  }
  const schedule = raw.trim();
  if (schedule === '@never') return null;
  try {
    const parsed = parseSchedule(schedule);
    const now = new Date();
    const first = parsed.next(now, now);
    const second = parsed.next(first, first);
    if (second.getTime() - first.getTime() < options.minMillis) {
      errors.push({ path: 'spec.schedule', message: `"${schedule}" runs more often than every ${options.minMillis / 1000}s, the shortest ${options.what} schedule` });
    }
    return schedule;
  } catch (error) {
    errors.push({ path: 'spec.schedule', message: error instanceof ScheduleError ? error.message : `"${schedule}" is not a schedule` });
    return null;
  }
}

export function zodProblems(error: z.ZodError, prefix: string): SpecProblem[] {
  return error.issues.map((issue) => {
    const path = issue.path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('');
    const message = issue.code === 'unrecognized_keys' ? `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}` : issue.message === 'Required' || /received undefined/.test(issue.message) ? 'is required' : issue.message;
    return { path: `${prefix}${path}`, message };
  });
}

/**
 * Reads a ScrapeConfig spec (config-db format): each entry of each supported type checked against its
 * type's fields and the shared mapping fields, the schedule (default hourly, at least 30 s, @never) and
 * retention.staleItemAge. Unknown fields of an entry are errors with their path; unsupported scraper
 * types are warnings.
 */
export function parseScraperSpec(raw: unknown): ParsedScraper {
  const errors: SpecProblem[] = [];
  const warnings: string[] = [];
  const spec = isRecord(raw) ? raw : {};
  if (!isRecord(raw)) errors.push({ path: 'spec', message: 'must be a mapping of scraper types (file, sql, http, …) and schedule' });
  const schedule = scheduleOf(spec.schedule, errors);
  if (spec.full !== undefined && spec.full !== null && typeof spec.full !== 'boolean') errors.push({ path: 'spec.full', message: 'must be true or false' });
  const full = spec.full === true;
  let staleMillis = DEFAULT_STALE_MILLIS;
  if (spec.retention !== undefined) {
    const retention = retentionSchema.safeParse(spec.retention);
    if (!retention.success) errors.push(...zodProblems(retention.error, 'spec.retention'));
    else if (retention.data.staleItemAge !== undefined) {
      const millis = parseDuration(retention.data.staleItemAge);
      if (millis === undefined) errors.push({ path: 'spec.retention.staleItemAge', message: `"${retention.data.staleItemAge}" is not a duration such as 24h or 30m` });
      else staleMillis = millis;
    }
    if (retention.success && (retention.data.changes || retention.data.types)) {
      warnings.push('spec.retention.changes and spec.retention.types: per-scraper change retention is not supported; changes are kept 60 days');
    }
  }
  const entries: ScraperEntry[] = [];
  for (const [key, value] of Object.entries(spec)) {
    if (SPEC_FIELDS.includes(key)) continue;
    const ignored = IGNORED_SPEC_FIELDS[key];
    if (ignored !== undefined) {
      if (value !== undefined && value !== null && value !== false && value !== '') warnings.push(`spec.${key}: ${ignored}; ignored`);
      continue;
    }
    const source = SOURCES.find((candidate) => candidate.key === key);
    if (!source) {
      if (UNSUPPORTED_TYPES.includes(key)) warnings.push(`spec.${key}: the ${key} scraper is not supported by this console; its entries are ignored`);
      else errors.push({ path: `spec.${key}`, message: `unknown scraper type; use one of ${SOURCES.map((s) => s.key).join(', ')}` });
      continue;
    }
    if (!Array.isArray(value)) {
      errors.push({ path: `spec.${key}`, message: 'must be a list of entries' });
      continue;
    }
    value.forEach((raw, index) => {
      const where = `spec.${key}[${index}]`;
      if (!isRecord(raw)) {
        errors.push({ path: where, message: 'must be a mapping' });
        return;
      }
      const item = upstreamEntry(key, raw, where, warnings);
      if (!item) return;
      // Every CEL field (health.expr, transform.expr, …) compiles at apply, named with its path and position.
      const celErrors = celFieldProblems(item, where);
      if (celErrors.length > 0) {
        errors.push(...celErrors);
        return;
      }
      // One schema per entry: the type's own fields plus the shared mapping fields, nothing else.
      const own = source.schema instanceof z.ZodObject ? source.schema.shape : {};
      const parsed = z.object({ ...mappingShape, ...own }).strict().safeParse(item);
      const checked = parsed.success ? source.schema.safeParse(item) : undefined;
      const failure = !parsed.success ? parsed.error : checked && !checked.success ? checked.error : undefined;
      if (failure && !failure.issues.every(isAtRunIssue)) {
        errors.push(...zodProblems(failure, where));
        return;
      }
      const mapping = z.object(mappingShape).parse(item);
      if (mapping.transform?.relationship?.length === 0) delete mapping.transform.relationship;
      if (failure) {
        // What config-db finds only when it scrapes (a secret it cannot read): a warning now, a failed entry then.
        const problems = zodProblems(failure, where);
        for (const problem of problems) warnings.push(`${problem.path}: ${problem.message} (this entry fails when the scraper runs)`);
        entries.push({ source, where, entry: item, raw: item, mapping, unreadable: problems.map((problem) => `${problem.path}: ${problem.message}`).join('; ') });
        return;
      }
      entries.push({ source, where, entry: checked?.success ? checked.data : item, raw: item, mapping });
    });
  }
  if (errors.length === 0 && entries.length === 0 && warnings.length === 0) {
    errors.push({ path: 'spec', message: `has no scraper entries; add one of ${SOURCES.map((s) => s.key).join(', ')}` });
  }
  return { schedule, staleMillis, full, entries, errors, warnings };
}
