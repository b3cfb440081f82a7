import { Link, useSearchParams } from 'react-router';
import { AuthCard } from '../components/auth-card';
import { FlowView } from '../components/flow-view';
import { useFlow } from '../kratos/use-flow';

/** /registration (spec §2): 'Create account', with a 'Sign in' link. */
export default function RegistrationPage() {
  const [params] = useSearchParams();
  const controller = useFlow('registration', ['return_to']);
  const returnTo = params.get('return_to');
  return (
    <AuthCard
      title="Create account"
      footer={
        <p>
          Already have an account?{' '}
          <Link to={returnTo ? `/login?return_to=${encodeURIComponent(returnTo)}` : '/login'} className="font-medium text-blue-700 hover:underline">
            Sign in
          </Link>
        </p>
      }
    >
      <FlowView controller={controller} />
    </AuthCard>
  );
}
