/**
 * The action types a playbook may name, in Mission Control's order; `RUN_TYPES` are those this console runs.
 * A leaf module: spec.ts and contextual/fields.ts (which fields each type templates) both read it.
 */
export const ACTION_TYPES = ['exec', 'http', 'sql', 'notification', 'logs', 'gitops', 'github', 'azureDevopsPipeline', 'prometheus', 'ai', 'pod', 'report'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];
export const RUN_TYPES: ReadonlySet<ActionType> = new Set(['exec', 'http', 'sql', 'notification', 'logs', 'gitops', 'github', 'azureDevopsPipeline', 'prometheus', 'ai']);
