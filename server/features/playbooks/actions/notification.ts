import { sendThrough } from '../../../platform/channels';
import { parseShoutrrr } from '../../../platform/channels/shoutrrr';
import type { ResolvedConnection } from '../../../platform/connections/types';
import { markdownToHtml } from '../../../platform/channels/markdown';
import { actionConnection, notRun, stopReason } from './shared';
import type { ActionContext, ActionOutcome } from './types';

/**
 * `notification` (Mission Control's NotificationAction): sends `title` and `message` (markdown) through a
 * notification connection (`connection://…` or its name) or a shoutrrr `url`, with `properties` as the
 * per-send settings (channel, priority, …), by the same channels as notification rules. Result: the
 * channel, what it said and the peer's HTTP status; a refused or failed send fails the action.
 */
export async function notification(ctx: ActionContext): Promise<ActionOutcome> {
  const spec = ctx.spec.notification;
  if (!spec) return { result: {}, error: 'the action has no notification block' };
  let connection: ResolvedConnection;
  try {
    if (spec.connection) connection = await actionConnection(ctx, spec.connection, 'notification.connection');
    else {
      const parsed = parseShoutrrr(spec.url ?? '');
      if (!parsed.ok) return { result: {}, error: `notification.url: ${parsed.error}` };
      connection = parsed.connection;
    }
  } catch (error) {
    return notRun(error);
  }
  const text = spec.message ?? '';
  const message = { title: spec.title, text, html: markdownToHtml(text), ...(spec.properties ? { properties: spec.properties } : {}) };
  const outcome = await sendThrough(connection, message, ctx.signal);
  const result = { channel: connection.type, message: outcome.message, ...(outcome.status !== undefined ? { status: outcome.status } : {}) };
  if (outcome.ok) return { result };
  if (ctx.signal.aborted) return { result, error: stopReason(ctx.signal) };
  return { result, error: [outcome.message, outcome.status ? `(HTTP ${outcome.status})` : '', outcome.excerpt ? `: ${outcome.excerpt}` : ''].filter(Boolean).join(' ') };
}
