import { Link } from 'react-router';
import { AuthCard } from '../components/auth-card';
import { FlowView } from '../components/flow-view';
import { useFlow } from '../kratos/use-flow';

/** /verification (spec §2): confirms an email address with the code sent to it. */
export default function VerificationPage() {
  const controller = useFlow('verification', ['return_to']);
  return (
    <AuthCard
      title="Verify your account"
      footer={
        <Link to="/" className="font-medium text-blue-700 hover:underline">
          Back to Watchkeeper
        </Link>
      }
    >
      <FlowView controller={controller} />
    </AuthCard>
  );
}
