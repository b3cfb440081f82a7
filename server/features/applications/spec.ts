import { z } from 'zod';
import { unknownFields } from '../../platform/schema-fields';

/**
 * The `Application` spec (mission-control.flanksource.com/v1, docs/APPLICATIONS.md): type, description,
 * properties, mapping (environments, logins, roles, accessReviews, datasources: each Mission Control
 * ResourceSelectors over the catalog) and sections (views by viewRef). One schema names every field we read;
 * a field outside it is a warning naming its path, never a refusal. Refused, each with its path: a field of
 * the wrong shape, a role mapping without a role, a section without a title or without a view reference.
 */

type Problem = { path: string; message: string };

const text = z.string({ message: 'must be a string' });
const name = z.string({ message: 'must be a string' }).trim().min(1, 'must not be empty');

/** Mission Control's ResourceSelector, as far as an application's mapping reads it. */
export const selectorSchema = z.object({
  id: text.optional(),
  name: text.optional(),
  namespace: text.optional(),
  agent: text.optional(),
  type: text.optional(),
  types: z.array(text, { message: 'must be a list of types' }).optional(),
  statuses: z.array(text, { message: 'must be a list of statuses' }).optional(),
  health: text.optional(),
  labelSelector: text.optional(),
  tagSelector: text.optional(),
  search: text.optional(),
  includeDeleted: z.boolean({ message: 'must be true or false' }).optional(),
  limit: z.number({ message: 'must be a number' }).int('must be a whole number').min(1, 'must be at least 1').max(10_000, 'must be at most 10000').optional(),
  // Read so that they are not unknown, then named in a warning: this console does not run them.
  fieldSelector: text.optional(),
  scope: text.optional(),
  cache: text.optional(),
});
export type AppSelector = z.infer<typeof selectorSchema>;

const selectors = z.array(selectorSchema, { message: 'must be a list of resource selectors' });

const environmentSchema = selectorSchema.extend({ purpose: text.optional() });
const roleSchema = selectorSchema.extend({ role: name });

/** api.Property: a labelled value shown in the overview. */
const propertySchema = z.object({
  name: text.optional(),
  label: text.optional(),
  tooltip: text.optional(),
  icon: text.optional(),
  text: text.optional(),
  order: z.number({ message: 'must be a number' }).optional(),
  type: text.optional(),
  color: text.optional(),
  value: z.number({ message: 'must be a number' }).optional(),
  unit: text.optional(),
  links: z.array(z.object({ label: text.optional(), url: text.optional(), icon: text.optional(), type: text.optional(), text: text.optional(), tooltip: text.optional() })).optional(),
});

const viewRefSchema = z.object({ namespace: text.optional(), name });

/** A section: an embedded view (viewRef). Newer upstream also has uiRef (configs/changes): read, warned, not run. */
const sectionSchema = z.object({
  title: name,
  icon: text.optional(),
  viewRef: viewRefSchema.optional(),
  uiRef: z.record(z.string(), z.unknown()).optional(),
});

export const applicationSpecSchema = z.object({
  type: text.optional(),
  description: text.optional(),
  properties: z.array(propertySchema, { message: 'must be a list of properties' }).optional(),
  mapping: z
    .object({
      environments: z.record(z.string(), z.array(environmentSchema, { message: 'must be a list of resource selectors' }), { message: 'must be a mapping of environment name to selectors' }).optional(),
      logins: selectors.optional(),
      roles: z.array(roleSchema, { message: 'must be a list of role mappings' }).optional(),
      accessReviews: selectors.optional(),
      datasources: selectors.optional(),
    }, { message: 'must be a mapping' })
    .optional(),
  sections: z.array(sectionSchema, { message: 'must be a list of sections' }).optional(),
  // Upstream's older field: applications are read live here, never scraped on a schedule.
  schedule: text.optional(),
});
export type ApplicationSpec = z.infer<typeof applicationSpecSchema>;

function zodPath(segments: ReadonlyArray<PropertyKey>): string {
  return segments.reduce<string>((out, segment) => (typeof segment === 'number' ? `${out}[${segment}]` : `${out}.${String(segment)}`), 'spec');
}

/** Every selector of the mapping with its path, for warnings and the report. */
export function mappingSelectors(spec: ApplicationSpec): Array<{ path: string; selector: AppSelector }> {
  const mapping = spec.mapping ?? {};
  const out: Array<{ path: string; selector: AppSelector }> = [];
  for (const [env, list] of Object.entries(mapping.environments ?? {})) list.forEach((selector, index) => out.push({ path: `spec.mapping.environments.${env}[${index}]`, selector }));
  for (const key of ['logins', 'accessReviews', 'datasources'] as const) (mapping[key] ?? []).forEach((selector, index) => out.push({ path: `spec.mapping.${key}[${index}]`, selector }));
  (mapping.roles ?? []).forEach((selector, index) => out.push({ path: `spec.mapping.roles[${index}]`, selector }));
  return out;
}

export interface CheckedApplication {
  spec: ApplicationSpec;
  warnings: string[];
}

const checked = new WeakMap<object, { problems: Problem[]; checked?: CheckedApplication }>();

/** Checks an application spec whole: every problem by path; every field not read or not run named in a warning. */
export function checkApplicationSpec(raw: Record<string, unknown>): { problems: Problem[]; checked?: CheckedApplication } {
  let found = checked.get(raw);
  if (!found) {
    found = check(raw);
    checked.set(raw, found);
  }
  return found;
}

function check(raw: Record<string, unknown>): { problems: Problem[]; checked?: CheckedApplication } {
  const parsed = applicationSpecSchema.safeParse(raw);
  if (!parsed.success) return { problems: parsed.error.issues.map((issue) => ({ path: zodPath(issue.path), message: issue.message })) };
  const spec = parsed.data;
  const problems: Problem[] = [];
  (spec.sections ?? []).forEach((section, index) => {
    if (!section.viewRef && !section.uiRef) problems.push({ path: `spec.sections[${index}].viewRef`, message: 'is required: the view this section shows (namespace and name)' });
  });
  if (problems.length > 0) return { problems };

  const warnings = unknownFields(applicationSpecSchema, raw, 'spec', { records: true }).map((path) => `${path} is not read by this console and was ignored`);
  if (spec.schedule !== undefined) warnings.push('spec.schedule is not run: the report reads the catalog live, so nothing is scraped on a schedule');
  for (const { path, selector } of mappingSelectors(spec)) {
    for (const field of ['fieldSelector', 'scope', 'cache'] as const) {
      if (selector[field] !== undefined) warnings.push(`${path}.${field} is not run: the selector matches without it`);
    }
  }
  (spec.sections ?? []).forEach((section, index) => {
    if (section.uiRef) warnings.push(`spec.sections[${index}].uiRef is not run: only sections with a viewRef are shown${section.viewRef ? '' : ', so this section is left out'}`);
  });
  return { problems: [], checked: { spec, warnings } };
}
