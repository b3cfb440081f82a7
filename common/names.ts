import { z } from 'zod';

/**
 * Resource names (docs/RESOURCES.md "Names"), one rule for the server (apply, watched folder, the
 * Kubernetes API, REST create routes, /api/db inserts) and the web forms that create resources:
 *
 * - valid text: no lone UTF-16 surrogate, no U+FFFD (what invalid UTF-8 bytes decode to), no control character;
 * - a name (`metadata.name`) is a DNS-1123 subdomain as Kubernetes defines it: lowercase letters, digits,
 *   '-' and '.', each '.'-separated part starting and ending with a letter or digit, at most 253 characters;
 * - a namespace (`metadata.namespace`) is a DNS-1123 label: lowercase letters, digits and '-', starting
 *   and ending with a letter or digit, at most 63 characters.
 *
 * Files written for canary-checker, config-db and Mission Control already use such names (they are
 * Kubernetes objects), so they apply unchanged. Display names (a team's title, a check's name inside a
 * canary, a view's title) are free text and not checked here.
 */

export const NAME_MAX = 253;
export const NAMESPACE_MAX = 63;

const DNS1123_LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN = new RegExp(`^${DNS1123_LABEL}(\\.${DNS1123_LABEL})*$`);
const DNS1123_LABEL_ONLY = new RegExp(`^${DNS1123_LABEL}$`);

export const NAME_RULE = `use lowercase letters, digits, '-' and '.', starting and ending with a letter or digit (at most ${NAME_MAX})`;
export const NAMESPACE_RULE = `use lowercase letters, digits and '-', starting and ending with a letter or digit (at most ${NAMESPACE_MAX})`;

export type NameKind = 'name' | 'namespace';

/** Why a text is not valid Unicode text for a name (a lone surrogate, U+FFFD from bad bytes, a control character), if it is not. */
export function textProblem(value: string): string | undefined {
  for (let index = 0; index < value.length; index += 1) {
    const code = value.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = value.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        index += 1;
        continue;
      }
      return 'is not valid UTF-8 (a lone surrogate)';
    }
    if (code >= 0xdc00 && code <= 0xdfff) return 'is not valid UTF-8 (a lone surrogate)';
    if (code === 0xfffd) return 'is not valid UTF-8 (it holds U+FFFD, what invalid bytes decode to)';
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return 'contains a control character';
  }
  return undefined;
}

/** A value as a message shows it: quoted, with control characters and lone surrogates escaped, cut when long. */
function shown(value: string): string {
  const cut = value.length > 80 ? `${value.slice(0, 80)}…` : value;
  return JSON.stringify(cut);
}

/**
 * The message (without the field) saying why `value` is not a valid resource name or namespace, or
 * undefined when it is: `"My Check" is not a valid name: use lowercase letters, …`.
 */
export function nameProblem(value: string, kind: NameKind = 'name'): string | undefined {
  const text = textProblem(value);
  if (text) return `${shown(value)} ${text}`;
  const max = kind === 'name' ? NAME_MAX : NAMESPACE_MAX;
  const pattern = kind === 'name' ? DNS1123_SUBDOMAIN : DNS1123_LABEL_ONLY;
  if (value.length > max || !pattern.test(value)) return `${shown(value)} is not a valid ${kind}: ${kind === 'name' ? NAME_RULE : NAMESPACE_RULE}`;
  return undefined;
}

/**
 * Whether the only thing wrong with a name is its uppercase letters (`HTTP`): files written for other tools
 * may carry such names (canary-checker's fixtures name connections `connection://HTTP/200`), so `apply` and
 * the watched folder take them with a warning, while the Kubernetes API and the console's routes refuse them.
 */
export function onlyUppercaseWrong(value: string, kind: NameKind = 'name'): boolean {
  return nameProblem(value, kind) !== undefined && nameProblem(value.toLowerCase(), kind) === undefined;
}

export function isValidName(value: string, kind: NameKind = 'name'): boolean {
  return nameProblem(value, kind) === undefined;
}

/**
 * A zod schema for a resource name (trimmed, required): the message names the rule, the issue's path
 * names the field (`metadata.name: "My Check" is not a valid name: …`).
 */
export function resourceNameSchema(kind: NameKind = 'name', options: { uppercase?: 'refuse' | 'allow' } = {}) {
  const allowUppercase = options.uppercase === 'allow';
  return z
    .string({ message: 'is required' })
    .trim()
    .min(1, 'is required')
    .superRefine((value, ctx) => {
      const problem = nameProblem(value, kind);
      if (problem && !(allowUppercase && onlyUppercaseWrong(value, kind))) ctx.addIssue({ code: 'custom', message: problem });
    });
}

/** A resource's name as the console's routes take it. */
export const resourceName = resourceNameSchema('name');
/** A resource's namespace as the console's routes take it. */
export const resourceNamespace = resourceNameSchema('namespace');
/**
 * `metadata.name` / `metadata.namespace` of a declarative document: uppercase alone is left to the caller
 * (`apply` warns, the Kubernetes API refuses); every other problem is refused here.
 */
export const documentName = resourceNameSchema('name', { uppercase: 'allow' });
export const documentNamespace = resourceNameSchema('namespace', { uppercase: 'allow' });

/**
 * The web forms' check of a resource they are about to create (docs/RESOURCES.md "Names"): the same
 * messages as the server's, on the form's `name` and `namespace` fields, before anything is sent. A form
 * editing an existing resource does not run it: its name does not change, and rows saved before the rule
 * stay editable.
 */
export function checkNewResourceName(values: { name: string; namespace: string }, ctx: z.RefinementCtx): void {
  const name = values.name.trim();
  const namespace = values.namespace.trim();
  const nameIssue = name === '' ? undefined : nameProblem(name, 'name');
  if (nameIssue) ctx.addIssue({ code: 'custom', path: ['name'], message: nameIssue });
  const namespaceIssue = namespace === '' ? undefined : nameProblem(namespace, 'namespace');
  if (namespaceIssue) ctx.addIssue({ code: 'custom', path: ['namespace'], message: namespaceIssue });
}
