import { canAccess, type AccessMap, type Action, type Resource } from '@common/rbac';
import { useQuery } from '@tanstack/react-query';
import { createContext, useContext, type ReactNode } from 'react';

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
}

/**
 * How the identity feature plugs in: it exports `sessionSource` from
 * `web/features/identity/session-source.ts`, and this provider picks it up. Until then there is no source,
 * the session is ready at once and has no user: nothing is faked, and no user menu entry pretends.
 */
export interface SessionSource {
  /** The current user, or undefined when nobody is signed in. */
  load: () => Promise<SessionUser | undefined>;
  /** Signs out; spec §2: the person returns to `returnTo` (current path and query) after signing in again. */
  signOut?: (returnTo: string) => Promise<void>;
}

export type Session =
  | { status: 'loading' }
  | { status: 'ready'; user: SessionUser | undefined; signOut: ((returnTo: string) => Promise<void>) | undefined };

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

function LoadedSession({ source, children }: { source: SessionSource; children: ReactNode }) {
  const query = useQuery({ queryKey: sessionQueryKey, queryFn: async () => (await source.load()) ?? null, retry: false });
  // A failed whoami leaves the session without a user; the identity feature owns redirects (spec §8).
  const value: Session = query.isPending ? { status: 'loading' } : { status: 'ready', user: query.data ?? undefined, signOut: source.signOut };
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
