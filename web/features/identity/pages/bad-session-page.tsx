import { Link, useSearchParams } from 'react-router';
import { useSession } from '@web/app/session';
import { toast } from '@web/lib/toast';
import { Button } from '@web/ui/primitives/button';
import { AuthCard } from '../components/auth-card';

export const BAD_SESSION_TEXT = 'Bad Session. Please try logging out and logging in again, if the problem persist, please contact us.';

/** The bad-session page of spec §2 (query error_code). */
export default function BadSessionPage() {
  const [params] = useSearchParams();
  const session = useSession();
  const text = params.get('error_code') === 'BAD_SESSION' ? BAD_SESSION_TEXT : 'Unknown error';
  const signOut = session.status === 'ready' || session.status === 'second-factor' ? session.signOut : undefined;
  const signedIn = session.status === 'second-factor' || (session.status === 'ready' && session.user !== undefined);
  return (
    <AuthCard title="Session error">
      <div className="flex flex-col gap-5 text-center">
        <p role="alert" className="text-sm text-slate-700">
          {text}
        </p>
        {signedIn && signOut ? (
          <Button variant="primary" onClick={() => {
              signOut('/').catch((error: unknown) => toast.error(error));
            }}>
            Sign out
          </Button>
        ) : (
          <Link to="/login" className="text-sm font-medium text-blue-700 hover:underline">
            Sign in
          </Link>
        )}
      </div>
    </AuthCard>
  );
}
