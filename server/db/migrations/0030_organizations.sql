-- Hosted mode, first part (issue 25, docs/HOSTED.md): people who sign in through an OpenID Connect
-- provider, the organizations its ID tokens name, and who belongs to which. The backend URL and `direct`
-- flag are here already so the next part (per-organization backends, the switcher) adds behaviour, not
-- columns. None of these tables is exposed through /api/db.

CREATE TABLE organizations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- The provider's id of the organization (the value in the organization claim); NULL for one made here.
  external_id text UNIQUE,
  name text NOT NULL CHECK (name <> ''),
  -- Spec §1: each organization has its own backend URL and a 'direct' flag. NULL: this server's database.
  backend_url text,
  direct boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE TRIGGER organizations_updated_at BEFORE UPDATE ON organizations FOR EACH ROW EXECUTE FUNCTION set_updated_at();

CREATE TABLE organization_members (
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  person_id uuid NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  -- A spec §6 role inside the organization (next part); NULL: the person's own roles apply.
  role text CHECK (role IN ('admin', 'editor', 'viewer', 'guest', 'commander', 'responder')),
  -- 'claim': from the provider's organization claim, replaced at every sign-in; 'console': added here.
  source text NOT NULL DEFAULT 'console' CHECK (source IN ('claim', 'console')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, person_id)
);
CREATE INDEX organization_members_person_idx ON organization_members (person_id);

-- An identity that signs in through a provider has a credential of type 'oidc' (as Ory Kratos names it),
-- found by the identifier '<issuer>#<subject>'; its config holds the issuer and subject.
ALTER TABLE identity_credentials DROP CONSTRAINT identity_credentials_type_check;
ALTER TABLE identity_credentials ADD CONSTRAINT identity_credentials_type_check
  CHECK (type IN ('password', 'totp', 'lookup_secret', 'webauthn', 'passkey', 'oidc'));

-- The organization a session works in (chosen in the switcher, next part); NULL until one is chosen.
ALTER TABLE sessions ADD COLUMN organization_id uuid REFERENCES organizations (id) ON DELETE SET NULL;

-- What a provider sign-in leaves beside our own session: the ID token (the id_token_hint of the
-- provider's logout) and the refresh token, encrypted with the secrets keyring (wk:1:…). Our session is
-- what signs requests in; the refresh token is kept for the organization backends of the next part.
CREATE TABLE oidc_sessions (
  session_id uuid PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
  issuer text NOT NULL,
  subject text NOT NULL,
  id_token text NOT NULL,
  refresh_token text,
  -- The organizations the ID token named at this sign-in (external ids), in the claim's order.
  organizations text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now()
);
