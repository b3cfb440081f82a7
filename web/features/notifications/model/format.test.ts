import { describe, expect, it } from 'vitest';
import { recipientText, resourceHref, ruleStatusOf, sendStatusLabel, sendStatusTone, silenceState, untilText } from './format';

describe('notification formatting', () => {
  it('reads send statuses as words with a tone', () => {
    expect(sendStatusLabel('sent')).toBe('Sent');
    expect(sendStatusLabel('repeat-interval')).toBe('Repeat interval');
    expect(sendStatusLabel('attempting_fallback')).toBe('Attempting fallback');
    expect(sendStatusLabel('evaluating-waitfor')).toBe('Waiting');
    expect(sendStatusTone('error')).toBe('danger');
    expect(sendStatusTone('sent')).toBe('success');
    expect(sendStatusTone('something-new')).toBe('neutral');
  });

  it('knows a rule status, treating the unknown as ok', () => {
    expect(ruleStatusOf('failing')).toBe('failing');
    expect(ruleStatusOf('error')).toBe('error');
    expect(ruleStatusOf('disabled')).toBe('disabled');
    expect(ruleStatusOf('waiting')).toBe('waiting');
    expect(ruleStatusOf(null)).toBe('ok');
    expect(ruleStatusOf('other')).toBe('ok');
  });

  it('names the recipient: person, team, email, connection or a URL without its secret', () => {
    expect(recipientText({ person: { name: 'Ada', email: 'ada@example.com' } })).toBe('Ada');
    expect(recipientText({ person: { name: null, email: 'ada@example.com' } })).toBe('ada@example.com');
    expect(recipientText({ team: { name: 'SRE' } })).toBe('SRE');
    expect(recipientText({ custom_services: [{ kind: 'email', email: 'oncall@example.com' }] })).toBe('oncall@example.com');
    expect(recipientText({ custom_services: [{ kind: 'connection', connection: 'connection://default/slack' }] })).toBe('connection://default/slack');
    expect(recipientText({ custom_services: [{ kind: 'url', url: 'slack://xoxb-secret@C123' }] })).toBe('slack://C123');
    expect(recipientText({ custom_services: [{ kind: 'url', url: 'https://user:pw@hooks.example.com/path?token=x' }] })).toBe('https://hooks.example.com/path');
    expect(recipientText({ custom_services: [{ kind: 'webhook', webhook: { url: 'https://hooks.example.com/in' } }] })).toBe('Webhook https://hooks.example.com/in');
    expect(recipientText({})).toBe('');
  });

  it("writes a silence's end, 'Indefinitely' for none", () => {
    const format = (date: Date) => date.toISOString();
    expect(untilText(null, format)).toBe('Indefinitely');
    expect(untilText(undefined, format)).toBe('Indefinitely');
    expect(untilText('2026-01-02T03:04:05.000Z', format)).toBe('2026-01-02T03:04:05.000Z');
  });

  it('tells active, upcoming and expired silences apart', () => {
    const now = new Date('2026-06-01T12:00:00Z');
    expect(silenceState({ from: '2026-06-01T11:00:00Z', until: null }, now)).toBe('active');
    expect(silenceState({ from: '2026-06-01T11:00:00Z', until: '2026-06-01T13:00:00Z' }, now)).toBe('active');
    expect(silenceState({ from: '2026-06-01T13:00:00Z', until: null }, now)).toBe('upcoming');
    expect(silenceState({ from: '2026-06-01T10:00:00Z', until: '2026-06-01T12:00:00Z' }, now)).toBe('expired');
  });

  it('links a resource to its page', () => {
    expect(resourceHref('check', 'c1')).toBe('/health?checkId=c1');
    expect(resourceHref('config', 'k1')).toBe('/catalog/k1');
    expect(resourceHref('component', 'p1')).toBe('/topology/p1');
    expect(resourceHref('incident', 'i1')).toBe('/incidents/i1');
    expect(resourceHref('canary', 'x')).toBeUndefined();
  });
});
