import { parseResourceYaml, resourceToYaml, type ParsedYaml, type ResourceDocument, type YamlKind } from '@web/features/canaries/model/document';
import type { Rule } from '../api/schema';

/** kind: Notification (mission-control.flanksource.com/v1, docs/NOTIFICATIONS.md). */
export const NOTIFICATION_YAML: YamlKind = {
  apiVersion: 'mission-control.flanksource.com/v1',
  kind: 'Notification',
  noun: 'notification',
  specHint: 'the events, the recipient (to) and optionally a filter and a title',
  leadingKeys: ['events', 'filter', 'title', 'template', 'to', 'fallback', 'repeatInterval', 'groupBy', 'waitFor', 'inhibitions'],
};

/** The editor's first text for a new rule: a check that fails mails the on-call address. */
export const EXAMPLE_RULE_YAML = `apiVersion: mission-control.flanksource.com/v1
kind: Notification
metadata:
  name: check-failures
  namespace: default
spec:
  # Event names: check.failed, check.passed, config.unhealthy, component.unhealthy, incident.created, ...
  events:
    - check.failed
  # Optional: a CEL expression over the event; the rule sends only when it is true.
  # filter: check.type == 'http'
  to:
    email: oncall@example.com
  # Optional: send the same notification again at most this often.
  repeatInterval: 30m
`;

function labelsOf(value: unknown): Record<string, string> {
  if (!value || typeof value !== 'object') return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

export function ruleToDocument(rule: Rule): ResourceDocument {
  return { name: rule.name, namespace: rule.namespace, labels: labelsOf(rule.labels), spec: rule.spec ?? {} };
}

export function ruleToYaml(rule: Rule): string {
  return resourceToYaml(ruleToDocument(rule), NOTIFICATION_YAML);
}

export function parseRuleYaml(text: string): ParsedYaml {
  return parseResourceYaml(text, NOTIFICATION_YAML);
}
