/**
 * A connection as a check, scraper, action or test uses it: every secret decrypted and every reference
 * (secret://, configmap://) resolved. It lives only in memory, for the run that needs it; it is never
 * answered, logged or stored.
 */
export interface ResolvedConnection {
  id: string;
  name: string;
  namespace: string;
  /** A type of common/connections.ts CONNECTION_TYPES. */
  type: string;
  url: string;
  username: string;
  password: string;
  certificate: string;
  insecureTLS: boolean;
  /** Type-specific extras (common/connections.ts fields whose target is `properties.<key>`), secrets decrypted. */
  properties: Record<string, string>;
}

/** What POST /api/connection/test/{id} answers. */
export interface TestOutcome {
  /** The peer answered as a working connection of this type answers. */
  ok: boolean;
  /** false when this server cannot test the type at all (cloud APIs it cannot reach): `message` says why. */
  tested: boolean;
  /** The peer's answer (a version, a status line) or the error, never carrying a secret value. */
  message: string;
}

/** Tests one type of connection within the signal's deadline (the API gives 10 s). */
export type ConnectionTester = (connection: ResolvedConnection, signal: AbortSignal) => Promise<TestOutcome>;
