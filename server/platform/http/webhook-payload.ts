import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { AppError } from './errors';

/**
 * What the public webhook endpoints share (health's `POST /webhook/{id}`, a playbook's webhook trigger):
 * the token comparison and the post as expressions read it.
 */

/** Request headers that carry credentials: never handed to expressions or kept. */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'webhook-token', 'x-session-token']);

export function sameToken(expected: string, given: string | undefined): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * canary-checker's variables: results.headers, results.json (a JSON body) and results.content (the body as
 * text). Both are always there ({} and '' when absent), so an expression need not guard each one.
 */
/** A webhook post as checks and playbooks read it: headers (secrets left out), the text and its JSON. */
export function webhookPayload(req: FastifyRequest): { headers: Record<string, string>; json: unknown; content: string; isJson: boolean } {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    const text = headerText(value);
    if (text !== undefined && !SECRET_HEADERS.has(name)) headers[name] = text;
  }
  const content = typeof req.body === 'string' ? req.body : '';
  const isJson = /^application\/([\w.+-]+\+)?json\b/i.test(headers['content-type'] ?? '') && content.trim() !== '';
  if (!isJson) return { headers, json: {}, content, isJson };
  try {
    return { headers, json: JSON.parse(content), content, isJson };
  } catch {
    throw new AppError('invalid_request', 'body: the JSON body is not valid JSON');
  }
}
