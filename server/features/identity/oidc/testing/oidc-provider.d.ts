// The part of oidc-provider (devDependency, no bundled types) that the tests' issuer uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface AccountClaims {
    sub: string;
    [claim: string]: unknown;
  }

  export interface ProviderConfiguration {
    clients: Array<Record<string, unknown>>;
    jwks: { keys: Array<Record<string, unknown>> };
    findAccount: (ctx: unknown, sub: string) => Promise<{ accountId: string; claims: () => Promise<AccountClaims> } | undefined>;
    claims?: Record<string, string[]>;
    conformIdTokenClaims?: boolean;
    cookies?: { keys: string[] };
    features?: Record<string, unknown>;
    pkce?: { required?: () => boolean };
    issueRefreshToken?: () => Promise<boolean>;
    rotateRefreshToken?: boolean;
    ttl?: Record<string, number>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: ProviderConfiguration);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
