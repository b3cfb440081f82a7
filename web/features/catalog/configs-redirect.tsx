import { Navigate, useLocation } from 'react-router';

/** Spec §2: /configs redirects to /catalog; the rest of the path and the query string come along. */
export function catalogPathFor(pathname: string): string {
  return pathname.replace(/^\/configs(?=\/|$)/, '/catalog');
}

export default function ConfigsRedirect() {
  const location = useLocation();
  return <Navigate to={{ pathname: catalogPathFor(location.pathname), search: location.search, hash: location.hash }} replace />;
}
