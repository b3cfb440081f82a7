import { HealthView } from './views/health-view';

/** /view/health (spec §2): the Health page without the sidebar and the top bar. */
export default function ViewHealthPage() {
  return <HealthView variant="bare" />;
}
