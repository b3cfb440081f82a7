import { HealthView } from './views/health-view';

/** /health (spec §2). */
export default function HealthPage() {
  return <HealthView variant="page" />;
}
