import { canAccess, type AccessMap, type Action, type Resource } from '@common/rbac';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, type ReactNode } from 'react';
import { onOrganizationRequired } from '@web/lib/api';

/** The signed-in person, as the identity feature reports it (GET /api/auth/whoami). */
export interface SessionUser {
  id: string;
  name: string;
  email?: string;
  avatar?: string;
  /** Spec §6 roles: admin, editor, viewer, guest, commander, responder. */
  roles: readonly string[];
  /**
   * What the server would allow, resource by resource (whoami's `permissions`). The console hides what
   * would be refused; the server stays the judge.
   */
  permissions: AccessMap;
  /**
   * A platform administrator (hosted mode, docs/HOSTED.md "Platform administrators"): manages every
   * organization, whatever their role where they work. Not a role: it gives nothing inside an organization.
   */
  platformAdmin?: boolean;
  /**
   * Hosted mode (docs/HOSTED.md): the organization this session works in (null: none chosen yet), the
   * person's organizations, for the switcher, and `role`, the role that counts in that organization (the
   * membership's, viewer when it names none; null in none). Absent with the console's own accounts.
   */
  hosted?: { organization: SessionOrganization | null; organizations: readonly SessionOrganization[]; role?: string | null };
}

/** One of the person's organizations (whoami's `organizations`). */
export interface SessionOrganization {
  id: string;
  name: string;
  /** Whether the organization's backend URL is known. */
  hasBackendUrl: boolean;
  /** Spec §1 'direct': the browser calls the organization's backend itself. */
  direct: boolean;
}

/**
 * Signed in with a password (or passkey), but the account has a second factor that is not done yet
 * (spec §6: the console sends the person to /login with aal=aal2).
 */
export const SECOND_FACTOR_PENDING = { pending: 'aal2' } as const;
export type SecondFactorPending = typeof SECOND_FACTOR_PENDING;

export function isSecondFactorPending(value: unknown): value is SecondFactorPending {
  return !!value && typeof value === 'object' && 'pending' in value && value.pending === 'aal2';
}

/**
 * How the identity feature plugs in: it exports `sessionSource` from
 * `web/features/identity/session-source.ts`, and this provider picks it up. Without a source (tests) the
 * session is ready at once and has no user.
 */
export interface SessionSource {
  /** The current user, undefined when nobody is signed in, or SECOND_FACTOR_PENDING. Throws when it cannot tell. */
  load: () => Promise<SessionUser | undefined | SecondFactorPending>;
  /** Signs out; spec §2: the person returns to `returnTo` (current path and query) after signing in again. */
  signOut?: (returnTo: string) => Promise<void>;
}

type SignOut = ((returnTo: string) => Promise<void>) | undefined;

export type Session =
  | { status: 'loading' }
  | { status: 'ready'; user: SessionUser | undefined; signOut: SignOut }
  /** A second factor is pending: only the sign-in pages are of use. */
  | { status: 'second-factor'; signOut: SignOut }
  /** whoami failed (network, 5xx): nobody can tell who this is yet. */
  | { status: 'error'; error: unknown; retry: () => void };

const NO_SESSION: Session = { status: 'ready', user: undefined, signOut: undefined };
const SessionContext = createContext<Session>(NO_SESSION);

function isSessionSource(value: unknown): value is SessionSource {
  return !!value && typeof value === 'object' && 'load' in value && typeof value.load === 'function';
}

/** The identity feature's source, when that feature exists in this build. */
export function discoverSessionSource(): SessionSource | undefined {
  const modules = import.meta.glob('../features/*/session-source.ts', { eager: true, import: 'sessionSource' });
  return Object.values(modules).find(isSessionSource);
}

export const sessionQueryKey = ['session'] as const;

const started = new WeakMap<SessionSource, ReturnType<SessionSource['load']>>();

/**
 * Asks for the session at app start, before the first render (web/app/router.tsx): the provider's first
 * read takes this answer; later reads (after a sign-in) ask again.
 */
export function preloadSession(source: SessionSource): void {
  const load = source.load();
  load.catch(() => undefined);
  started.set(source, load);
}

function loadSession(source: SessionSource): ReturnType<SessionSource['load']> {
  const early = started.get(source);
  started.delete(source);
  return early ?? source.load();
}

function LoadedSession({ source, children }: { source: SessionSource; children: ReactNode }) {
  // Spec §7: whoami is not refetched on focus; sign-in pages refetch it when the identity changes.
  const query = useQuery({ queryKey: sessionQueryKey, queryFn: async () => (await loadSession(source)) ?? null, retry: false, staleTime: Infinity, refetchOnWindowFocus: false });
  // Hosted mode: an answer saying the session has no organization (it was lost mid-session: deleted, or the
  // person removed) reads whoami again, so the layout shows the chooser (docs/HOSTED.md). A read already
  // under way is joined, not restarted, when several answers say so at once.
  const queryClient = useQueryClient();
  useEffect(() => onOrganizationRequired(() => void queryClient.invalidateQueries({ queryKey: sessionQueryKey }, { cancelRefetch: false })), [queryClient]);
  let value: Session;
  if (query.isPending) value = { status: 'loading' };
  else if (query.isError) value = { status: 'error', error: query.error, retry: () => void query.refetch() };
  else if (isSecondFactorPending(query.data)) value = { status: 'second-factor', signOut: source.signOut };
  else value = { status: 'ready', user: query.data ?? undefined, signOut: source.signOut };
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function SessionProvider({ source, children }: { source: SessionSource | undefined; children: ReactNode }) {
  if (!source) return <SessionContext.Provider value={NO_SESSION}>{children}</SessionContext.Provider>;
  return <LoadedSession source={source}>{children}</LoadedSession>;
}

/** For tests and previews: a fixed session without a source. */
export function StaticSession({ value, children }: { value: Session; children: ReactNode }) {
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  return useContext(SessionContext);
}

/**
 * Spec §6 access checks for the signed-in person: `can('permissions', 'write')` is true when any write
 * action (create, update, delete, …) is allowed. Nobody signed in can do nothing.
 */
export function useAccess(): { ready: boolean; can: (resource: Resource, action: Action | 'write') => boolean } {
  const session = useSession();
  const user = session.status === 'ready' ? session.user : undefined;
  return { ready: session.status === 'ready', can: (resource, action) => (user ? canAccess(user.permissions, resource, action) : false) };
}
