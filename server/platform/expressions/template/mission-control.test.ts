import { describe, expect, it } from 'vitest';
import { ExpressionError } from '../errors';
import { trimmedLabels } from './funcs/mission-control';
import { compileTemplate, NOTIFICATION_FUNCTIONS, PLAYBOOK_FUNCTIONS, renderTemplate } from './index';

/**
 * Mission Control's own template functions: the notification helpers (Slack Block Kit pieces, labels) and
 * a playbook run's getAction / getLastAction, each only where Mission Control offers it.
 */
const notify = (template: string, data: unknown = {}) => renderTemplate('spec.template', template, data, NOTIFICATION_FUNCTIONS);

describe('notification helpers', () => {
  it('write Slack blocks as JSON, text quoted', () => {
    expect(JSON.parse(notify('{{slackSectionTextMD "*Disk* is \\"full\\"\\n"}}'))).toEqual({ type: 'section', text: { type: 'mrkdwn', text: '*Disk* is "full"\n' } });
    expect(JSON.parse(notify('{{slackSectionTextPlain .name}}', { name: 'a <b> & c' }))).toEqual({ type: 'section', text: { type: 'plain_text', text: 'a <b> & c' } });
    expect(JSON.parse(notify('{{slackSectionTextFieldMD "x"}}'))).toEqual({ type: 'mrkdwn', text: 'x' });
    expect(JSON.parse(notify('{{slackSectionTextFieldPlain "y"}}'))).toEqual({ type: 'plain_text', text: 'y' });
  });

  it('slackURLAction makes buttons of name and URL pairs, the first primary; an odd count says so', () => {
    expect(JSON.parse(notify('{{slackURLAction "Open" "https://x.example/1" "Silence" "https://x.example/2"}}'))).toEqual({
      type: 'actions',
      elements: [
        { type: 'button', text: { type: 'plain_text', text: 'Open', emoji: true }, url: 'https://x.example/1', action_id: 'Open', style: 'primary' },
        { type: 'button', text: { type: 'plain_text', text: 'Silence', emoji: true }, url: 'https://x.example/2', action_id: 'Silence' },
      ],
    });
    expect(notify('{{slackURLAction "Open"}}')).toMatch(/^slackURLAction: give a name and a URL for each button/);
  });

  it('slackHealthEmoji, labelsFormat', () => {
    expect(notify('{{slackHealthEmoji "healthy"}} {{slackHealthEmoji "unhealthy"}} {{slackHealthEmoji "warning"}} {{slackHealthEmoji "unknown"}}')).toBe(':large_green_circle: :red_circle: :large_orange_circle: :white_circle:');
    expect(notify('{{labelsFormat .labels}}', { labels: { team: 'payments', env: 'prod' } })).toBe('### Labels:\n**env**: prod<br>**team**: payments<br>');
    expect(notify('{{labelsFormat .labels}}', { labels: {} })).toBe('');
  });

  it('slackSectionLabels: tags, then whitelisted labels, in the hierarchy order, at most ten, as a fields section', () => {
    const resource = {
      tags: { namespace: 'shop', cluster: 'prod-eu', region: 'eu', zone: 'prod' },
      labels: { 'app.kubernetes.io/name': 'checkout', app: 'checkout-legacy', 'app.kubernetes.io/version': '1.4.2', 'pod-template-hash': 'abc' },
    };
    expect(JSON.parse(notify('{{slackSectionLabels .}}', resource))).toEqual({
      type: 'section',
      fields: [
        { type: 'mrkdwn', text: '*cluster*: prod-eu', verbatim: true },
        { type: 'mrkdwn', text: '*namespace*: shop', verbatim: true },
        { type: 'mrkdwn', text: '*app*: checkout-legacy', verbatim: true },
        { type: 'mrkdwn', text: '*app.kubernetes.io/version*: 1.4.2', verbatim: true },
        { type: 'mrkdwn', text: '*region*: eu', verbatim: true },
      ],
    });
    expect(notify('{{slackSectionLabels .}}', { tags: {}, labels: { unrelated: 'x' } })).toBe('');
    const many = Object.fromEntries(Array.from({ length: 14 }, (_, i) => [`k${String(i).padStart(2, '0')}`, `value-${i}-${'x'.repeat(i)}`]));
    expect(JSON.parse(notify('{{slackSectionLabels .}}', { tags: many })).fields).toHaveLength(10);
  });

  it('trimmedLabels leaves out a tag whose value starts a longer tag\'s value', () => {
    expect(trimmedLabels(new Map([['cluster', 'prod-eu'], ['zone', 'prod'], ['env', 'prod-eu-1']]), new Map())).toEqual([{ key: 'env', value: 'prod-eu-1' }]);
  });

  it('are not gomplate\'s: a health check template does not see them', () => {
    expect(() => compileTemplate('display.template', '{{slackSectionTextMD "x"}}')).toThrow(ExpressionError);
    expect(() => compileTemplate('display.template', '{{slackSectionTextMD "x"}}')).toThrow(/function "slackSectionTextMD" not defined/);
    expect(() => compileTemplate('spec.template', '{{slackSectionTextMD "x"}}', NOTIFICATION_FUNCTIONS)).not.toThrow();
  });
});

describe('a playbook run\'s getAction and getLastAction', () => {
  const data = {
    wk_actions: { diagnose: { name: 'diagnose', status: 'completed', result: { json: '{"severity": "high", "summary": "disk full"}' }, error: null } },
    wk_last_action: { name: 'diagnose', status: 'completed', result: {}, error: 'boom' },
  };

  it('read the run\'s actions, also in a variable declared over a pipeline', () => {
    const text = '{{$d := (getAction "diagnose").result.json | json}}{{index $d "severity"}}: {{index $d "summary"}}; last {{getLastAction.name}} {{(getLastAction).error}}';
    expect(renderTemplate('message', text, data, PLAYBOOK_FUNCTIONS)).toBe('high: disk full; last diagnose boom');
  });

  it('answer an empty map for an action that did not run, and keep to their own dot inside range', () => {
    expect(renderTemplate('message', '{{len (getAction "nope")}}', data, PLAYBOOK_FUNCTIONS)).toBe('0');
    expect(renderTemplate('message', '{{range .items}}{{.}}={{(getAction "diagnose").status}} {{end}}', { ...data, items: ['a', 'b'] }, PLAYBOOK_FUNCTIONS)).toBe('a=completed b=completed ');
  });

  it('playbook actions see the notification helpers too; notifications do not see getAction', () => {
    expect(JSON.parse(renderTemplate('message', '{{slackSectionTextMD (getAction "diagnose").status}}', data, PLAYBOOK_FUNCTIONS)).text.text).toBe('completed');
    expect(() => compileTemplate('spec.title', '{{getAction "x"}}', NOTIFICATION_FUNCTIONS)).toThrow(/function "getAction" not defined/);
  });
});
