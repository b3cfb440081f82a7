import { renderTemplate } from '../../platform/expressions';
import { isRecord } from '../../platform/errors';
import { collectSpecSecrets } from '../../platform/secrets/collect';
import type { SecretValues } from '../../platform/secrets/redact';
import { resolveEnvVar } from '../../platform/secrets/resolve';
import type { SecretStore } from '../../platform/secrets/store';
import { renderActionInContext } from './contextual/action';
import type { ActionSpec, PlaybookSpec } from './spec';

/** One variable of a playbook's `spec.env` as written: `{name, value}` or `{name, valueFrom}`. */
export type EnvDefinition = NonNullable<PlaybookSpec['env']>[number];

/**
 * The shape of the input an action run on an agent (runsOn) is given. Version 2: the action as written, its
 * template data and the playbook's env as written — the agent resolves the references and renders it itself.
 * Earlier versions sealed the rendered action with the env resolved upstream: such a row is not given to an
 * agent (docs/AGENTS.md "Playbook actions (runsOn)").
 */
export const AGENT_INPUT_VERSION = 2;

/**
 * What an agent is given to run an action (sealed by the secret store at rest upstream, answered to the agent's
 * claim). It never holds a value upstream read from its own Secrets, ConfigMaps or connections: references
 * travel as written and are resolved on the agent, in `namespace`, from the agent's own secrets and connections.
 */
export interface AgentActionInput {
  version: typeof AGENT_INPUT_VERSION;
  /** The action as written in the playbook (templates not rendered). */
  spec: Record<string, unknown>;
  /** The playbook's spec.env as written (literal values and valueFrom references). */
  env: EnvDefinition[];
  /** `.params`, `.config`/`.component`/`.check`, `.actions` (earlier results, stored redacted), `.request`, … without `.env`. */
  templateData: Record<string, unknown>;
  namespace: string;
  playbook: { id: string; name: string; namespace: string };
  timeoutMillis: number | null;
  /** The run's secret parameters (already in templateData.params): kept out of the result, by the agent and again upstream. */
  redact: string[];
}

/** Whether a revealed agent_input is of the version this console gives to agents. */
export function isAgentActionInput(value: unknown): value is AgentActionInput {
  return (
    isRecord(value) &&
    value.version === AGENT_INPUT_VERSION &&
    isRecord(value.spec) &&
    Array.isArray(value.env) &&
    isRecord(value.templateData) &&
    typeof value.namespace === 'string'
  );
}

/**
 * spec.env of a playbook in clear: a value templated over `data`, a reference resolved in `namespace` through
 * `store` (this console's, or an agent's own for an action it runs); each value read from a reference is
 * added to `redactor`. An unresolvable reference throws UnresolvedReference naming it (`spec.env[0]: …`).
 */
export async function resolvePlaybookEnv(
  store: SecretStore,
  namespace: string,
  env: readonly EnvDefinition[],
  data: Record<string, unknown>,
  redactor: SecretValues,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [index, variable] of env.entries()) {
    const where = `spec.env[${index}]`;
    if (variable.value !== undefined) out[variable.name] = variable.value.includes('{{') ? renderTemplate(where, variable.value, data) : variable.value;
    else redactor.add((out[variable.name] = await resolveEnvVar(store, namespace, variable, where)));
  }
  return out;
}

/**
 * An action made ready to run where `store` looks: the playbook's env resolved, every template rendered over
 * the data and `.env` (contextual/action.ts), and every secret the rendered action points at (its env,
 * connections, secret:// values) added to `redactor`, so they are kept out of what it leaves.
 */
export async function prepareAction(
  store: SecretStore,
  namespace: string,
  action: ActionSpec,
  env: readonly EnvDefinition[],
  data: Record<string, unknown>,
  redactor: SecretValues,
): Promise<{ spec: ActionSpec; env: Record<string, string>; templateData: Record<string, unknown> }> {
  const resolved = await resolvePlaybookEnv(store, namespace, env, data, redactor);
  const templateData = { ...data, env: resolved };
  const spec = renderActionInContext(action, templateData);
  await collectSpecSecrets(store, spec, namespace, redactor);
  return { spec, env: resolved, templateData };
}
