import { renderTemplate as renderGoTemplate } from './template/index';

export { compileTemplate, type CompiledTemplate } from './template/index';

/**
 * `display.template`, `test.template`, topology fields, http urls, headers and bodies: Go's
 * text/template with gomplate's functions, as canary-checker runs it (see template/index.ts). A
 * missing key prints `<no value>`; durations print as Go's Duration.String(). A template that does not
 * parse or fails while running throws ExpressionError naming `where` and the line:column.
 */
export function renderTemplate(where: string, template: string, variables: Record<string, unknown>): string {
  return renderGoTemplate(where, template, variables);
}
