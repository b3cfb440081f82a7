import type { FastifyReply, FastifyRequest } from 'fastify';
import { wantsJson } from '../kratos/context';
import type { OidcError } from './provider';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A failed sign-in through the provider: JSON `{ error, message }` for API clients, and for a browser
 * (the callback is a navigation) a small page that says what went wrong and offers to start again.
 */
export function sendFailure(req: FastifyRequest, reply: FastifyReply, error: OidcError): FastifyReply {
  const code = error.status === 503 ? 'service_unavailable' : 'unauthorized';
  reply.status(error.status).header('cache-control', 'no-store');
  if (wantsJson(req)) return reply.type('application/json; charset=utf-8').send({ error: code, message: error.message });
  const title = error.status === 503 ? 'The sign-in provider is not available' : 'Sign-in failed';
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Watchkeeper</title>
<style>body{font-family:system-ui,sans-serif;background:#f8fafc;color:#0f172a;display:flex;justify-content:center;padding-top:12vh;margin:0}
main{background:#fff;border:1px solid #e2e8f0;border-radius:8px;padding:2rem;max-width:28rem}h1{font-size:1.25rem;margin:0 0 1rem}
p{line-height:1.5}a{display:inline-block;margin-top:1rem;background:#2563eb;color:#fff;padding:.5rem 1rem;border-radius:6px;text-decoration:none}</style>
</head><body><main role="alert"><h1>${title}</h1><p>${escape(error.message.charAt(0).toUpperCase() + error.message.slice(1))}.</p>
<a href="/login">Back to sign in</a></main></body></html>`;
  return reply.type('text/html; charset=utf-8').send(html);
}
