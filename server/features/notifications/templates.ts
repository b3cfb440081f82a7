import { NOTIFICATION_FUNCTIONS, renderTemplate } from '../../platform/expressions';
import type { EventResource } from './resource';

/**
 * Default titles and bodies per event (Go templates over the same variables a rule's own title and
 * template see). A rule's `title` / `template` replace them. Bodies are Markdown: chat channels render it,
 * email sends it as text and as simple HTML.
 */
const LINK = '{{if .permalink}}\n\n[Open in Watchkeeper]({{.permalink}}){{end}}';
const LABELS = '{{if .labels}}\n\n{{range $k, $v := .labels}}**{{$k}}**: {{$v}}  \n{{end}}{{end}}';

const CHECK_BODY = `{{if .canary.name}}Canary: {{.canary.name}}\n{{end}}{{if .check.namespace}}Namespace: {{.check.namespace}}\n{{end}}Type: {{.check.type}}\n{{if .check.description}}Description: {{.check.description}}\n{{end}}{{if .check.message}}\nMessage: {{.check.message}}{{end}}${LABELS}${LINK}`;
const CONFIG_BODY = `Type: {{.config.type}}\n{{if .config.namespace}}Namespace: {{.config.namespace}}\n{{end}}{{if .config.status}}Status: {{.config.status}}\n{{end}}{{if .config.description}}Description: {{.config.description}}\n{{end}}${LABELS}${LINK}`;
const COMPONENT_BODY = `{{if .component.type}}Type: {{.component.type}}\n{{end}}{{if .component.status}}Status: {{.component.status}}\n{{end}}{{if .component.status_reason}}Reason: {{.component.status_reason}}\n{{end}}${LABELS}${LINK}`;
const INCIDENT_BODY = `{{.incident.incident_id}}: {{.incident.title}}\nSeverity: {{.incident.severity}}\nType: {{.incident.type}}\nStatus: {{.incident.status}}\n{{if .incident.description}}\n{{.incident.description}}\n{{end}}${LINK}`;
const CHANGE_BODY = `{{if .event.properties.change_type}}Change: {{.event.properties.change_type}}\n{{end}}{{if .event.properties.summary}}Summary: {{.event.properties.summary}}\n{{end}}{{if .event.properties.severity}}Severity: {{.event.properties.severity}}\n{{end}}Type: {{.config.type}}${LINK}`;

interface Defaults {
  title: string;
  body: string;
}

export function defaultTemplates(event: string): Defaults {
  const [kind, second = '', third = ''] = event.split('.');
  if (kind === 'check') return { title: second === 'passed' ? 'Check {{.check.name}} has passed' : 'Check {{.check.name}} has failed', body: CHECK_BODY };
  if (kind === 'config') {
    if (second === 'created') return { title: '{{.config.type}} {{.config.name}} was created', body: CONFIG_BODY };
    if (second === 'updated') return { title: '{{.config.type}} {{.config.name}} was updated', body: CONFIG_BODY };
    if (second === 'deleted') return { title: '{{.config.type}} {{.config.name}} was deleted', body: CONFIG_BODY };
    if (second === 'changed') return { title: '{{.config.type}} {{.config.name}} changed{{if .event.properties.change_type}}: {{.event.properties.change_type}}{{end}}', body: CHANGE_BODY };
    return { title: `{{.config.type}} {{.config.name}} is ${second}`, body: CONFIG_BODY };
  }
  if (kind === 'component') return { title: `Component {{.component.name}} is ${second}`, body: COMPONENT_BODY };
  if (kind === 'incident') {
    if (second === 'created') return { title: 'New incident {{.incident.incident_id}}: {{.incident.title}}', body: INCIDENT_BODY };
    if (second === 'status') return { title: `Incident {{.incident.incident_id}} is ${third}: {{.incident.title}}`, body: INCIDENT_BODY };
    if (second === 'responder') return { title: `A responder was ${third} on incident {{.incident.incident_id}}`, body: INCIDENT_BODY };
    if (second === 'comment') return { title: 'New comment on incident {{.incident.incident_id}}', body: `{{if .event.properties.comment}}{{.event.properties.comment}}\n\n{{end}}${INCIDENT_BODY}` };
    if (second === 'dod') return { title: `Definition of done of incident {{.incident.incident_id}}: ${[third, event.split('.')[3]].filter(Boolean).join(' ')}`, body: INCIDENT_BODY };
  }
  if (kind === 'playbook') {
    const body = `Playbook: {{.playbook.title}}{{if not .playbook.title}}{{.playbook.name}}{{end}}\nStatus: {{.run.status}}\n{{if .resource.name}}Resource: {{.resource.name}}\n{{end}}{{if .run.error}}Error: {{.run.error}}\n{{end}}${LINK}`;
    if (second === 'approval') return { title: 'Playbook {{.playbook.name}} waits for approval', body };
    return { title: `Playbook {{.playbook.name}} ${third === 'failed' ? 'failed' : 'completed'}{{if .resource.name}} on {{.resource.name}}{{end}}`, body };
  }
  return { title: event, body: LINK };
}

export interface RenderedMessage {
  title: string;
  body: string;
}

/** The message of one event: the rule's title and template, or the defaults; errors name the rule's field. */
export function renderMessage(rule: { title: string | null; template: string | null }, event: string, resource: EventResource): RenderedMessage {
  const defaults = defaultTemplates(event);
  const title = renderTemplate('spec.title', rule.title || defaults.title, resource.env, NOTIFICATION_FUNCTIONS).trim();
  const body = renderTemplate('spec.template', rule.template || defaults.body, resource.env, NOTIFICATION_FUNCTIONS).trim();
  return { title: title.replace(/\s+/g, ' ').slice(0, 1_000), body: body.replace(/[ \t]*\n(?:[ \t]*\n){2,}/g, '\n\n') };
}

/** One message for a group: the first resource's title with the count, and a line per resource. */
export function groupMessage(first: RenderedMessage, resources: Array<{ name: string; title: string; link: string }>, publicUrl: string): RenderedMessage {
  if (resources.length <= 1) return first;
  const base = publicUrl.replace(/\/+$/, '');
  const lines = resources.slice(0, 100).map((resource) => `- ${resource.title}${base ? ` ([open](${base}${resource.link}))` : ''}`);
  const more = resources.length > 100 ? `\n…and ${resources.length - 100} more` : '';
  return { title: `${first.title} (and ${resources.length - 1} more)`, body: `${resources.length} resources:\n\n${lines.join('\n')}${more}` };
}

export { markdownToHtml } from '../../platform/channels/markdown';
