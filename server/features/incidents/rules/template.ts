/**
 * Fills `{{name}}`, `{{type}}`, `{{health}}`, `{{status}}`, `{{rule}}` … in a rule's title or description.
 * Mission Control's forms are read too: `{{.name}}`, `{{.component.name}}`, `{{ .check.name }}`,
 * `{{.config.type}}`, `{{.resource.name}}` name the same values; an unknown name is left empty.
 */
export function fillTemplate(template: string, values: Record<string, string | null | undefined>): string {
  return template.replace(/\{\{\s*\.?([A-Za-z_]+(?:\.[A-Za-z_]+)?)\s*\}\}/g, (_, path: string) => {
    const parts = path.toLowerCase().split('.');
    const key = parts.length === 2 && ['component', 'check', 'config', 'resource', 'incident'].includes(parts[0] ?? '') ? parts[1] : parts.length === 1 ? parts[0] : undefined;
    return key === undefined ? '' : (values[key] ?? '');
  });
}
