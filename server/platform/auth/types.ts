import type { FastifyRequest } from 'fastify';
import type { Action, Resource, Role, TokenScope } from '../../../common/rbac';
import type { AppError } from '../http/errors';
import type { ObjectSelector } from './object-selector';

/** A permission row as the evaluator needs it (spec §3 Permission). */
export interface PermissionRule {
  id: string;
  action: string;
  deny: boolean;
  subject_type: string;
  subject: string;
  object: string | null;
  config_id: string | null;
  component_id: string | null;
  canary_id: string | null;
  playbook_id: string | null;
  connection_id: string | null;
  tags: Record<string, string> | null;
  agents: string[] | null;
  /**
   * Mission Control's object selectors ({configs: [{name, namespace, types, labelSelector, …}], playbooks,
   * components, connections, …}) as stored in object_selector; see object-selector.ts.
   */
  object_selector?: ObjectSelector | null;
  /**
   * The targets of the Scopes the row's object names (`scopes: [{namespace, name}]`, kind Scope), expanded
   * when the rows are loaded: alternatives, any of which may select the resource; none while a scope is missing.
   */
  scopes?: ObjectSelector[] | null;
}

/** Who is making a request: a person, through a session or an API token. */
export interface Actor {
  /** people.id (the identity id). */
  id: string;
  name: string;
  email: string | null;
  /**
   * Spec §6 roles. Working in an organization (hosted mode, docs/HOSTED.md "Roles per organization"): the
   * member's role there (viewer when the membership names none); else the person's own roles.
   */
  roles: Role[];
  /**
   * A platform administrator (hosted mode, migration 0040): manages every organization through
   * /api/auth/organizations. Not a role: it gives nothing inside an organization.
   */
  platformAdmin?: boolean;
  teamIds: string[];
  /** Names of the permission groups (kind PermissionGroup) the person belongs to, directly or by a team. */
  groups?: string[];
  /** Permission rows whose subject is this person, one of their teams, or one of their roles. */
  permissions: PermissionRule[];
  /**
   * `organizationId`: the organization the session works in (hosted mode, docs/HOSTED.md): chosen in the
   * switcher, or the person's only one; null when none is chosen.
   */
  session?: { id: string; aal: 'aal1' | 'aal2'; authenticatedAt: Date; organizationId: string | null };
  token?: { id: string; scopes: TokenScope[] };
  /**
   * The organization the request works in (hosted mode, docs/HOSTED.md), for a session and an API token
   * alike: the session's (chosen or only one), or the token's while its owner is still a member and the
   * organization is not deleted; null when none; undefined for an actor without a credential (an admin
   * asking what someone may do).
   */
  organizationId?: string | null;
  /**
   * That organization as the same statement read it (hosted mode): its name, backend and the person's role
   * there, so the front's proxy forwards without another query.
   */
  organization?: { id: string; name: string; backendUrl: string | null; direct: boolean; role: string | null };
}

/** One specific resource a request acts on (its own module, which object selectors use too). */
export type { AccessTarget } from './target';

/**
 * What a route needs. `public`: anyone; `authenticated`: any signed-in person; `self-checked`: the
 * handler decides (it still gets the actor); otherwise an action on an RBAC resource (spec §6).
 */
export type RouteAccess = 'public' | 'authenticated' | 'self-checked' | { resource: Resource; action: Action };

/** Why a decision came out as it did (POST /api/rbac/check explains it). */
export type DecisionReason =
  | { kind: 'deny'; permission: string }
  | { kind: 'permission'; permission: string }
  | { kind: 'role'; role: Role }
  | { kind: 'token'; token: string }
  | { kind: 'none' };

export interface Decision {
  allowed: boolean;
  reason: DecisionReason;
}

/** How the platform asks identity who is calling; resolved once per request. */
export interface Authenticator {
  actorOf(req: FastifyRequest): Promise<Actor | undefined>;
  /**
   * Why a signed-in caller may not use this route yet, if so (hosted mode: no organization chosen, spec
   * §6); the guard answers it before anything else, on every route but the public ones.
   */
  refusal?(req: FastifyRequest, actor: Actor): AppError | undefined;
}
