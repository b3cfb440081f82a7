import { z } from 'zod';
import { connectionReference, connectionType } from '@common/connections';
import type { Pair } from '@web/features/canaries/editor/pairs-input';

/**
 * A team's notification channel as stored in `teams.spec.notifications` (Mission Control's shape):
 * `{connection}`, `{url}` (a shoutrrr URL), `{email}` or `{emails: [...]}`, with optional `properties`.
 * Fields the console does not edit (a channel's `filter`, …) are kept as they are.
 */
export type Channel = Record<string, unknown>;

/** A notification connection offered by the Add channel dialog. */
export interface NotificationConnection {
  id: string;
  name: string;
  namespace: string;
  type: string;
}

export type ChannelKind = 'connection' | 'emails' | 'url';

export const CHANNEL_KIND_LABELS: Record<ChannelKind, string> = { connection: 'Connection', emails: 'Email addresses', url: 'Service URL' };

export const CHANNELS_EXPLANATION = 'Notifications for this team go to these channels; with none, to each member by email.';
export const NO_CHANNELS_TEXT = 'No notification channels: members are notified by email.';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The spec as an object (a team without one, or with a non-object, has none). */
export function specObject(spec: unknown): Record<string, unknown> {
  return isObject(spec) ? spec : {};
}

/** The channels of a team's spec; entries that are not objects are not channels and are left out. */
export function teamChannels(spec: unknown): Channel[] {
  const list = specObject(spec).notifications;
  return Array.isArray(list) ? list.filter(isObject) : [];
}

/** The spec with these channels, every other key untouched; with none, `notifications` goes. */
export function withChannels(spec: unknown, channels: readonly Channel[]): Record<string, unknown> {
  const { notifications: _old, ...rest } = specObject(spec);
  return channels.length > 0 ? { ...rest, notifications: [...channels] } : rest;
}

/**
 * A shoutrrr URL shown without what it carries: only scheme://host (the user part, path and query hold
 * tokens and passwords, e.g. slack://token@channel).
 */
export function redactUrl(url: string): string {
  const match = /^([a-z][a-z0-9+.-]*):\/\/(?:[^@/?#]*@)?([^/?#:]*)/i.exec(url.trim());
  if (!match) return '(hidden)';
  return `${match[1]}://${match[2]}`;
}

/** `connection://ns/name`, `ns/name` or `name` (namespace default), as the server resolves it. */
export function parseConnectionReference(reference: string): { namespace: string; name: string } | undefined {
  const full = reference.includes('://') ? reference : `connection://${reference}`;
  const match = /^connection:\/\/(?:([^/\s]+)\/)?([^/\s]+)$/.exec(full);
  return match?.[2] ? { namespace: match[1] ?? 'default', name: match[2] } : undefined;
}

export interface ChannelView {
  kind: ChannelKind | 'unknown';
  /** 'Connection', 'Email addresses', 'Service URL'. */
  kindLabel: string;
  /** What the channel is, safe to show: a connection name and type, scheme://host, the addresses. */
  text: string;
  properties: Array<[string, string]>;
}

/** How a channel is shown; the connection list gives a connection's type (and whether it still exists). */
export function describeChannel(channel: Channel, connections: readonly NotificationConnection[] | undefined): ChannelView {
  const properties = isObject(channel.properties) ? Object.entries(channel.properties).map(([key, value]): [string, string] => [key, typeof value === 'string' ? value : JSON.stringify(value)]) : [];
  if (typeof channel.connection === 'string' && channel.connection !== '') {
    const ref = parseConnectionReference(channel.connection);
    const found = ref ? connections?.find((connection) => connection.namespace === ref.namespace && connection.name === ref.name) : undefined;
    const name = ref ? `${ref.namespace}/${ref.name}` : channel.connection;
    const type = found ? ` (${connectionType(found.type)?.label ?? found.type})` : connections ? ' (not found)' : '';
    return { kind: 'connection', kindLabel: CHANNEL_KIND_LABELS.connection, text: `${name}${type}`, properties };
  }
  if (typeof channel.url === 'string' && channel.url !== '') {
    return { kind: 'url', kindLabel: CHANNEL_KIND_LABELS.url, text: redactUrl(channel.url), properties };
  }
  const emails = [...(typeof channel.email === 'string' ? [channel.email] : []), ...(Array.isArray(channel.emails) ? channel.emails.map(String) : [])].filter(Boolean);
  if (emails.length > 0) return { kind: 'emails', kindLabel: CHANNEL_KIND_LABELS.emails, text: emails.join(', '), properties };
  return { kind: 'unknown', kindLabel: 'Unknown', text: 'Not a channel (no connection, url or emails)', properties };
}

/** Whether a connection type sends notifications (common/connections.ts, category 'Notifications'). */
export function isNotificationType(type: string): boolean {
  return connectionType(type)?.category === 'Notifications';
}

export interface ChannelDraft {
  kind: ChannelKind;
  /** A connection://ns/name reference. */
  connection: string;
  emails: string;
  url: string;
  properties: Pair[];
}

export const EMPTY_DRAFT: ChannelDraft = { kind: 'emails', connection: '', emails: '', url: '', properties: [] };

export interface DraftProblems {
  connection?: string;
  emails?: string;
  url?: string;
  /** By row of the properties. */
  properties?: Record<number, string>;
}

const emailSchema = z.email();
const SHOUTRRR_URL = /^[a-z][a-z0-9+.-]*:\/\/\S+$/i;

/** The addresses of a comma (or space, or semicolon) separated text. */
export function splitEmails(text: string): string[] {
  return text
    .split(/[,;\s]+/)
    .map((email) => email.trim())
    .filter(Boolean);
}

export function connectionValue(connection: NotificationConnection): string {
  return connectionReference(connection.namespace, connection.name);
}

/** The channel a draft describes, or what is wrong with it. */
export function draftChannel(draft: ChannelDraft): { channel: Channel } | { problems: DraftProblems } {
  const problems: DraftProblems = {};
  let channel: Channel = {};
  if (draft.kind === 'connection') {
    if (!draft.connection) problems.connection = 'Choose a connection';
    channel = { connection: draft.connection };
  } else if (draft.kind === 'emails') {
    const emails = splitEmails(draft.emails);
    const invalid = emails.filter((email) => !emailSchema.safeParse(email).success);
    if (emails.length === 0) problems.emails = 'This field is required';
    else if (invalid.length > 0) problems.emails = `Not a valid email address: ${invalid.join(', ')}`;
    channel = { emails: [...new Set(emails)] };
  } else {
    const url = draft.url.trim();
    if (!url) problems.url = 'This field is required';
    else if (!SHOUTRRR_URL.test(url)) problems.url = 'Enter a service URL such as slack://token@channel';
    channel = { url };
  }
  const properties: Record<string, string> = {};
  const propertyProblems: Record<number, string> = {};
  draft.properties.forEach((pair, index) => {
    const key = pair.name.trim();
    if (!key && !pair.value.trim()) return;
    if (!key) propertyProblems[index] = 'This field is required';
    else if (key in properties) propertyProblems[index] = `${key} is given twice`;
    else properties[key] = pair.value;
  });
  if (Object.keys(propertyProblems).length > 0) problems.properties = propertyProblems;
  if (Object.keys(problems).length > 0) return { problems };
  return { channel: Object.keys(properties).length > 0 ? { ...channel, properties } : channel };
}

/** Same channel, whatever the order of its keys. */
export function sameChannel(a: Channel, b: Channel): boolean {
  const canonical = (value: unknown): unknown =>
    Array.isArray(value) ? value.map(canonical) : isObject(value) ? Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical(value[key])])) : value;
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}
