import type { FastifyInstance, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { z } from 'zod';
import { artifactBytes, findArtifact, listArtifacts, type ArtifactOwner } from '../../platform/artifacts';
import { forbidden } from '../../platform/auth/guard';
import { decide } from '../../platform/auth/decide';
import type { AccessTarget, Actor } from '../../platform/auth/types';
import type { AppContext } from '../../platform/context';
import { isRecord } from '../../platform/errors';
import { AppError } from '../../platform/http/errors';
import { route } from '../../platform/http/route';
import { artifactAnswer, contentDisposition, presentArtifact } from './presenter';

const uuid = z.uuid({ message: 'must be a UUID' });
const instant = z
  .string({ message: 'is required' })
  .transform((text, ctx) => {
    const time = new Date(text);
    if (Number.isNaN(time.getTime())) {
      ctx.addIssue({ code: 'custom', message: 'must be a date-time (RFC 3339), as the result time' });
      return z.NEVER;
    }
    return time;
  });

/** One result's artifacts (check_id and check_time) or one playbook action's, named in the query. */
const listQuery = z
  .object({ check_id: uuid.optional(), check_time: instant.optional(), playbook_run_action_id: uuid.optional() })
  .superRefine((query, ctx) => {
    if (query.playbook_run_action_id !== undefined) {
      if (query.check_id !== undefined) ctx.addIssue({ code: 'custom', path: ['check_id'], message: 'give either check_id and check_time or playbook_run_action_id' });
      return;
    }
    if (query.check_id === undefined) ctx.addIssue({ code: 'custom', path: ['check_id'], message: 'is required (or playbook_run_action_id)' });
    if (query.check_time === undefined) ctx.addIssue({ code: 'custom', path: ['check_time'], message: 'is required with check_id' });
  });

function ownerOf(query: z.output<typeof listQuery>): ArtifactOwner {
  if (query.playbook_run_action_id !== undefined) return { playbookRunActionId: query.playbook_run_action_id };
  if (query.check_id === undefined || query.check_time === undefined) throw new AppError('invalid_request', 'check_id and check_time are required');
  return { checkId: query.check_id, checkTime: query.check_time };
}

function actorOf(req: FastifyRequest): Actor {
  if (!req.actor) throw new AppError('unauthorized', 'sign in first');
  return req.actor;
}

/** The canary a check belongs to, as permission rows and selectors see it. */
async function canaryTarget(pool: pg.Pool, checkId: string): Promise<AccessTarget | undefined> {
  const { rows } = await pool.query<{ id: string; name: string; namespace: string; labels: unknown; agent_id: string }>(
    'SELECT ca.id, ca.name, ca.namespace, ca.labels, ca.agent_id FROM checks c JOIN canaries ca ON ca.id = c.canary_id WHERE c.id = $1',
    [checkId],
  );
  const row = rows[0];
  if (!row) return undefined;
  const labels = isRecord(row.labels) ? Object.fromEntries(Object.entries(row.labels).filter((entry): entry is [string, string] => typeof entry[1] === 'string')) : {};
  return { kind: 'canary', id: row.id, name: row.name, namespace: row.namespace, labels, agent: row.agent_id };
}

/**
 * Artifacts are read by whoever may read what they belong to: a check's by `canaries: read` (a permission
 * on its canary counts), a playbook action's by `playbook_runs: read`.
 */
async function assertMayRead(pool: pg.Pool, actor: Actor, owner: ArtifactOwner | undefined): Promise<void> {
  if (owner === undefined) {
    // Nothing to read: say "not found" only to someone who could read some artifact.
    if (!decide(actor, 'canaries', 'read').allowed && !decide(actor, 'playbook_runs', 'read').allowed) throw forbidden('canaries', 'read');
    return;
  }
  if ('checkId' in owner) {
    const target = await canaryTarget(pool, owner.checkId);
    if (!decide(actor, 'canaries', 'read', target).allowed) throw forbidden('canaries', 'read');
    return;
  }
  if (!decide(actor, 'playbook_runs', 'read').allowed) throw forbidden('playbook_runs', 'read');
}

/** Does the client take gzip (so the stored, compressed bytes can go as they are)? */
function acceptsGzip(header: string | undefined): boolean {
  return (header ?? '').split(',').some((part) => {
    const [name = '', ...params] = part.trim().split(';');
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    return (name.trim() === 'gzip' || name.trim() === '*') && (q === undefined || Number(q.slice(2)) > 0);
  });
}

/** A script's HTML or SVG must never run as this console's page, even opened in place of downloaded. */
const DOWNLOAD_CSP = "sandbox; default-src 'none'";

/** /api/artifacts (DESIGN §5; Mission Control's /artifacts): lists and downloads. */
export async function artifactRoutes(parent: FastifyInstance, ctx: AppContext): Promise<void> {
  await parent.register(async (app) => {
    // The app's security headers set its own CSP when the answer is sent; this scope's hook runs after it.
    app.addHook('onSend', async (_req, reply, payload) => {
      if (reply.hasHeader('content-disposition')) reply.header('content-security-policy', DOWNLOAD_CSP);
      return payload;
    });
    routes(app, ctx);
  });
}

function routes(app: FastifyInstance, ctx: AppContext): void {
  const { pool } = ctx;
  const list = async (req: FastifyRequest, owner: ArtifactOwner) => {
    await assertMayRead(pool, actorOf(req), owner);
    return (await listArtifacts(pool, owner)).map(presentArtifact);
  };

  route(app, {
    method: 'GET',
    url: '/api/artifacts/list',
    summary: 'The artifacts of a check result (check_id and check_time) or of a playbook run action',
    tags: ['artifacts'],
    access: 'authenticated',
    query: listQuery,
    response: z.array(artifactAnswer),
    handler: ({ query, req }) => list(req, ownerOf(query)),
  });

  route(app, {
    method: 'GET',
    url: '/api/artifacts/list/check/:id/:check_time',
    summary: 'The artifacts of a check result (Mission Control’s path)',
    tags: ['artifacts'],
    access: 'authenticated',
    params: z.object({ id: uuid, check_time: instant }),
    response: z.array(artifactAnswer),
    handler: ({ params, req }) => list(req, { checkId: params.id, checkTime: params.check_time }),
  });

  route(app, {
    method: 'GET',
    url: '/api/artifacts/download/:id',
    summary: 'One artifact’s file, with its content type and file name',
    tags: ['artifacts'],
    access: 'authenticated',
    params: z.object({ id: uuid }),
    handler: async ({ params, req, reply }) => {
      const actor = actorOf(req);
      const artifact = await findArtifact(pool, params.id);
      const owner: ArtifactOwner | undefined = !artifact
        ? undefined
        : artifact.check_id && artifact.check_time
          ? { checkId: artifact.check_id, checkTime: artifact.check_time }
          : artifact.playbook_run_action_id
            ? { playbookRunActionId: artifact.playbook_run_action_id }
            : undefined;
      await assertMayRead(pool, actor, owner);
      if (!artifact) throw new AppError('not_found', `artifact ${params.id} was not found (or it has expired)`);
      reply
        .header('content-type', artifact.content_type ?? 'application/octet-stream')
        .header('content-disposition', contentDisposition(artifact.filename))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-cache')
        .header('etag', `"${artifact.checksum}"`)
        .header('vary', 'accept-encoding');
      if (artifact.content_encoding === 'gzip' && acceptsGzip(req.headers['accept-encoding'])) {
        return reply.header('content-encoding', 'gzip').send(artifact.content);
      }
      return reply.send(await artifactBytes(artifact));
    },
  });
}
