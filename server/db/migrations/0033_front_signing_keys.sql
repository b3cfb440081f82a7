-- Hosted mode (issue 25, docs/HOSTED.md "Tokens for backends"): the ES256 keys the front signs its
-- short-lived organization tokens with. The private key is encrypted with the secrets keyring (wk:1:…),
-- so every front instance sharing the database and the key signs with the same key; the public halves are
-- served at /api/auth/jwks. The newest row signs; older rows stay published until they are deleted.
CREATE TABLE front_signing_keys (
  kid text PRIMARY KEY,
  private_jwk text NOT NULL,
  public_jwk jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
