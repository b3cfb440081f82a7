import { useLocation, useParams } from 'react-router';

/**
 * The table a generic page shows: the `:table` segment of the catch-all routes, or, on a registered
 * table's own routes (settings/teams, settings/teams/:id, which carry its menu entry and guard), the
 * path segment after 'settings'.
 */
export function useTableParam(): string | undefined {
  const { table } = useParams();
  const { pathname } = useLocation();
  if (table !== undefined) return table;
  const [first, second] = pathname.split('/').filter((segment) => segment !== '');
  return first === 'settings' ? second : undefined;
}
