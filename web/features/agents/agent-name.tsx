import { Link } from 'react-router';
import { useAgentNameMap } from './lookup';
import { agentLabel, isLocalAgent } from './model';

/**
 * A resource's agent in a list (issue 23: everywhere a resource is listed, its agent shows): 'local' for
 * the nil uuid (spec §3), else the agent's name linking to its page (spec §2 /settings/agents?id=).
 */
export function AgentName({ id }: { id: string | null | undefined }) {
  const names = useAgentNameMap();
  if (isLocalAgent(id)) return <span className="text-slate-500">local</span>;
  const agentId = id ?? '';
  return (
    <Link to={`/settings/agents?id=${encodeURIComponent(agentId)}`} onClick={(event) => event.stopPropagation()} className="text-blue-700 hover:underline">
      {agentLabel(agentId, names)}
    </Link>
  );
}
