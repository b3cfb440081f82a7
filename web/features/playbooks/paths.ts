export const PLAYBOOKS_PATH = '/playbooks';
export const RUNS_PATH = '/playbooks/runs';
export const NEW_PLAYBOOK_PATH = '/playbooks/new';
export const playbookPath = (id: string) => `/playbooks/${encodeURIComponent(id)}`;
export const runPath = (id: string) => `/playbooks/runs/${encodeURIComponent(id)}`;
/** Spec §2: /playbooks/runs accepts the query playbook={id}. */
export const playbookRunsPath = (id: string) => `${RUNS_PATH}?playbook=${encodeURIComponent(id)}`;
export const resourceRunsPath = (id: string) => `${RUNS_PATH}?resource=${encodeURIComponent(id)}`;
export const artifactDownloadPath = (id: string) => `/api/artifacts/download/${encodeURIComponent(id)}`;
