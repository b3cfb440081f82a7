import { type FunctionSet, renderTemplate as renderGoTemplate } from './template/index';

export { compileTemplate, NOTIFICATION_FUNCTIONS, PLAYBOOK_FUNCTIONS, type CompiledTemplate, type FunctionSet } from './template/index';

/**
 * `display.template`, `test.template`, topology fields, http urls, headers and bodies: Go's
 * text/template with gomplate's functions, as canary-checker runs it (see template/index.ts). A
 * missing key prints `<no value>`; durations print as Go's Duration.String(). A template that does not
 * parse or fails while running throws ExpressionError naming `where` and the line:column. `functions`
 * adds a context's own (notifications, playbook actions: template/functions.ts).
 */
export function renderTemplate(where: string, template: string, variables: Record<string, unknown>, functions?: FunctionSet): string {
  return renderGoTemplate(where, template, variables, functions);
}
