import { isRecord } from '../../../errors';
import { func, variadicFunc } from '../define';
import { type GoFunc, isGoMap } from '../kinds';
import { toString } from './conv';
import { goJSON, jsonString } from './json';

/**
 * Mission Control's own template functions, beside gomplate's: the notification helpers (its
 * notification TemplateFuncs: Slack Block Kit pieces and label formatting), which notification titles,
 * bodies and playbook action fields see, and the playbook run's `getAction` / `getLastAction`. They are
 * not gomplate's, so health checks' templates do not see them (functions.ts picks a set per context).
 *
 * Slack texts are JSON strings here: Mission Control formats them with Go's %q, which is the same text for
 * printable characters and writes control characters in Go's escapes (not JSON); here they are JSON's.
 */

const text = (value: string) => jsonString(value, false);

/** A Slack section with one text block; `kind` mrkdwn or plain_text. */
const section = (kind: 'mrkdwn' | 'plain_text') => func(['string'], (value) => `{"type": "section", "text": {"type": "${kind}", "text": ${text(value)}}}`);
/** A section field (a text object on its own), for a section's `fields`. */
const field = (kind: 'mrkdwn' | 'plain_text') => func(['string'], (value) => `{"type": "${kind}", "text": ${text(value)}}`);

/** slackHealthEmoji: the circle Slack shows for a health. */
const HEALTH_EMOJI: Record<string, string> = { healthy: ':large_green_circle:', unhealthy: ':red_circle:', warning: ':large_orange_circle:' };

/**
 * slackURLAction(name, url, name, url, …): an actions block of link buttons, the first styled primary.
 * An odd number of arguments answers a line saying so (as Mission Control, it does not fail the template).
 */
const slackURLAction = variadicFunc([], 'string', (...values) => {
  if (values.length % 2 !== 0) return 'slackURLAction: give a name and a URL for each button (an odd number of arguments was given)';
  const buttons: string[] = [];
  for (let i = 0; i < values.length; i += 2) {
    const [name, url] = [values[i] as string, values[i + 1] as string];
    buttons.push(`{"type": "button", "text": {"type": "plain_text", "text": ${text(name)}, "emoji": true}, "url": ${text(url)}, "action_id": ${text(name)}${i === 0 ? ', "style": "primary"' : ''}}`);
  }
  return `{"type": "actions", "elements": [${buttons.join(', ')}]}`;
});

/** labelsFormat(labels): a Markdown list of the labels under a heading, keys in order; empty for none. */
const labelsFormat = func(['map'], (labels) => {
  const keys = Object.keys(labels).sort();
  if (keys.length === 0) return '';
  return `### Labels:\n${keys.map((key) => `**${key}**: ${toString(labels[key])}<br>`).join('')}`;
});

/**
 * The labels a notification shows (duty's trimmed labels): every tag (a tag whose value starts another
 * tag's longer value is left out), then of the labels only the first present of each whitelist group;
 * ordered by the usual hierarchy of keys, then by name.
 */
const LABEL_GROUPS = [['app', 'batch.kubernetes.io/jobname', 'app.kubernetes.io/name', 'kustomize.toolkit.fluxcd.io/name'], ['app.kubernetes.io/version']];
const LABEL_ORDER = ['account', 'project', 'cluster', 'namespace', 'name', 'service', 'deployment', 'statefulset', 'daemonset', 'cronjob', 'pod', 'job', 'container', 'release', 'chart'];

function textMap(value: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (isRecord(value)) for (const [key, item] of Object.entries(value)) if (typeof item === 'string') out.set(key, item);
  return out;
}

export function trimmedLabels(tags: ReadonlyMap<string, string>, labels: ReadonlyMap<string, string>): Array<{ key: string; value: string }> {
  // Tags, longest value first: a tag whose value is a prefix of a longer one says nothing more.
  const byLength = [...tags].map(([key, value]) => ({ key, value })).sort((a, b) => b.value.length - a.value.length || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const kept = byLength.filter((tag, index) => !byLength.slice(0, index).some((longer) => longer.value.startsWith(tag.value)));
  const out = [...kept];
  for (const group of LABEL_GROUPS) {
    const key = group.find((candidate) => labels.has(candidate));
    if (key !== undefined && !out.some((item) => item.key === key)) out.push({ key, value: labels.get(key) ?? '' });
  }
  const rank = (key: string) => {
    const at = LABEL_ORDER.indexOf(key);
    return at < 0 ? LABEL_ORDER.length : at;
  };
  return out.sort((a, b) => rank(a.key) - rank(b.key) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** slackSectionLabels(resource): a section of up to 10 `*key*: value` fields from the resource's tags and labels, as JSON; empty for none. */
const slackSectionLabels = func(['any'], (resource) => {
  if (!isGoMap(resource)) return '';
  const fields = trimmedLabels(textMap(resource.tags), textMap(resource.labels))
    .filter((label) => label.value.trim() !== '')
    .slice(0, 10)
    .map((label) => ({ text: `*${label.key}*: ${label.value}`, type: 'mrkdwn', verbatim: true }));
  if (fields.length === 0) return '';
  return goJSON({ fields, type: 'section' }, { escapeHTML: true });
});

/** The notification helpers (Mission Control's notification TemplateFuncs). */
export const notificationFunctions: Readonly<Record<string, GoFunc>> = {
  labelsFormat,
  slackHealthEmoji: func(['string'], (health) => HEALTH_EMOJI[health] ?? ':white_circle:'),
  slackSectionLabels,
  slackSectionTextFieldPlain: field('plain_text'),
  slackSectionTextFieldMD: field('mrkdwn'),
  slackSectionTextMD: section('mrkdwn'),
  slackSectionTextPlain: section('plain_text'),
  slackURLAction,
};

/** The run's actions as the playbook runner hands them to templates (`wk_actions`, `wk_last_action` of the data). */
function runValue(root: unknown, key: string): unknown {
  return isRecord(root) ? root[key] : undefined;
}

/**
 * A playbook run's functions: `getAction "name"` (an earlier action of the run: name, status, result,
 * error; an empty map when there is none, as Mission Control) and `getLastAction` (the action before this
 * one). They read the run's actions from the template's data, which the runner fills.
 */
export const playbookRunFunctions: Readonly<Record<string, GoFunc>> = {
  getAction: { params: ['string'], call: (args, root) => {
    const actions = runValue(root, 'wk_actions');
    const name = args[0] as string;
    const found = isRecord(actions) ? actions[name] : undefined;
    return isRecord(found) ? found : {};
  } },
  getLastAction: { params: [], call: (_args, root) => {
    const last = runValue(root, 'wk_last_action');
    return isRecord(last) ? last : {};
  } },
};
