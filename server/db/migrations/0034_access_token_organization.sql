-- Hosted mode (issue 25, docs/HOSTED.md "API tokens in hosted mode"): an API token works in one
-- organization, as a session does. A token made from a session gets the session's organization; one made
-- with `watchkeeper token create --organization ORG` gets ORG; any other has none (NULL). The
-- authenticator answers it only while the token's owner is still a member and the organization is not
-- deleted; in oidc mode a token without one is refused like a session without one.
ALTER TABLE access_tokens ADD COLUMN organization_id uuid NULL REFERENCES organizations(id);
CREATE INDEX access_tokens_organization_idx ON access_tokens (organization_id) WHERE organization_id IS NOT NULL;

-- The Tokens page names each token's organization (new columns go last: CREATE OR REPLACE VIEW keeps the others).
CREATE OR REPLACE VIEW access_tokens_summary AS
SELECT tk.id, tk.name, tk.person_id, tk.scopes, tk.expires_at, tk.last_used_at, tk.created_by, tk.created_at, tk.deleted_at,
  jsonb_build_object('id', p.id, 'name', p.name, 'email', p.email) AS person,
  tk.organization_id,
  CASE WHEN o.id IS NULL THEN NULL ELSE jsonb_build_object('id', o.id, 'name', o.name) END AS organization
FROM access_tokens tk
JOIN people p ON p.id = tk.person_id
LEFT JOIN organizations o ON o.id = tk.organization_id;
