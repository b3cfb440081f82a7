import { Link, useLocation } from 'react-router';
import { Page } from '../layout/page';
import { ErrorPage } from './error-page';
import { buttonBase } from '@web/ui/primitives/button';
import { cn } from '@web/ui/primitives/cn';

/** Unknown routes: the generic error page inside the shell, so the sidebar still leads somewhere. */
export default function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <Page title="Page not found">
      <ErrorPage
        error={new Error(`Page not found: ${pathname}`)}
        showDetails={false}
        actions={
          <Link to="/" className={cn(buttonBase, 'h-9 bg-blue-600 px-4 text-white hover:bg-blue-700')}>
            Go to the home page
          </Link>
        }
      />
    </Page>
  );
}
