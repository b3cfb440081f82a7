import { Link } from 'react-router';
import { AuthCard } from '../components/auth-card';
import { FlowView } from '../components/flow-view';
import { useFlow } from '../kratos/use-flow';

/** /recovery (spec §2): a code by mail, then the profile settings to choose a new password. */
export default function RecoveryPage() {
  const controller = useFlow('recovery', ['return_to']);
  return (
    <AuthCard
      title="Recover account"
      footer={
        <Link to="/login" className="font-medium text-blue-700 hover:underline">
          Back to sign in
        </Link>
      }
    >
      <FlowView controller={controller} />
    </AuthCard>
  );
}
