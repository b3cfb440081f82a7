-- Hosted mode (issue 35, docs/HOSTED.md "Roles per organization"): Settings → Users reads people_roles. Working
-- in an organization, the role that counts is the membership's (viewer when it names none; none for an account
-- made inside the organization that is not a member of it), never the person's own roles (person_roles), which
-- count only outside any organization. The page shows, and POST /api/people/update changes, that role. Outside
-- any organization (the built-in mode, the console's own work) the column is the person's own roles as before.
CREATE OR REPLACE VIEW people_roles WITH (security_invoker = true) AS
SELECT
  p.id, p.name, p.email, p.avatar, p.last_login, p.created_at, p.updated_at, p.deleted_at,
  i.state, i.state_changed_at,
  CASE
    WHEN current_organization() IS NULL THEN
      coalesce((SELECT array_agg(r.role ORDER BY r.role) FROM person_roles r WHERE r.person_id = p.id), '{}')
    ELSE
      coalesce((SELECT ARRAY[coalesce(m.role, 'viewer')] FROM organization_members m
                 WHERE m.person_id = p.id AND m.organization_id = current_organization()), '{}')
  END AS roles,
  coalesce((
    SELECT jsonb_agg(jsonb_build_object('id', t.id, 'name', t.name) ORDER BY t.name)
    FROM team_members tm JOIN teams t ON t.id = tm.team_id AND t.deleted_at IS NULL
    WHERE tm.person_id = p.id
  ), '[]'::jsonb) AS teams
FROM people p
JOIN identities i ON i.id = p.id;
