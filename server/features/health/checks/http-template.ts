import { interpolate, renderTemplate } from '../../../platform/expressions';
import type { CheckContext } from '../types';
import type { HttpSpec } from '../../../platform/peers/http-spec';

/**
 * What canary-checker templates in an http check, and with which values (checks/http.go and duty's
 * context): the URL gets Go templates then `$(…)` (duty's struct templater, both delimiters); a header
 * value holding `{{` gets a Go template; with `templateBody` the body gets a Go template then `$(…)`
 * (duty's RunTemplate). Username and password are not templated.
 *
 * The values: `canary` {id, name, namespace, labels}, `check` {id, name, description, labels, endpoint},
 * the canary's `env` values, then `name` and `namespace` (the canary's), `username`, `password`, `domain`
 * (what follows @ in the username), then the check's own `env` entries by name, each later one winning.
 */
export function templateVariables(spec: HttpSpec, ctx: CheckContext, endpoint: string): Record<string, unknown> {
  const username = spec.username ?? '';
  const labels = typeof spec.labels === 'object' && spec.labels !== null ? spec.labels : {};
  const values: Record<string, unknown> = {
    canary: { id: ctx.canary.id, name: ctx.canary.name, namespace: ctx.canary.namespace, labels: {} },
    check: { id: ctx.checkId, name: typeof spec.name === 'string' ? spec.name : '', description: typeof spec.description === 'string' ? spec.description : '', labels, endpoint },
    ...ctx.env,
    name: ctx.canary.name,
    namespace: ctx.canary.namespace,
    username,
    password: spec.password ?? '',
    domain: username.split('@').length === 2 ? (username.split('@')[1] ?? '') : '',
  };
  for (const item of spec.env ?? []) values[item.name] = item.value;
  return values;
}

/** The URL (or the older endpoint) filled in. */
export function templatedUrl(raw: string, variables: Record<string, unknown>): string {
  const filled = raw.includes('{{') ? renderTemplate('url', raw, variables) : raw;
  return interpolate('url', filled, variables).trim();
}

/** Header values as sent: a value holding `{{` is a Go template. */
export function templatedHeaders(spec: HttpSpec, variables: Record<string, unknown>): Array<{ name: string; value: string }> {
  return (spec.headers ?? []).map((header) => ({ name: header.name, value: header.value.includes('{{') ? renderTemplate(`headers.${header.name}`, header.value, variables).trim() : header.value }));
}

/** The body as sent: with templateBody, a Go template, then `$(…)`, trimmed as gomplate trims its output. */
export function templatedBody(spec: HttpSpec, variables: Record<string, unknown>): string | undefined {
  if (spec.body === undefined || !spec.templateBody) return spec.body;
  return interpolate('body', renderTemplate('body', spec.body, variables).trim(), variables).trim();
}
