import { z } from 'zod';

/**
 * The blocks of Mission Control's gitops, github, azureDevopsPipeline, prometheus, ai and logs actions
 * (api/v1/playbook_actions.go), by its field names. A field outside a schema is a warning in spec.ts, never
 * a refusal; the executors read their block with these at run time. Reading a block that was already read gives
 * it back unchanged (an id written as a number becomes its text once). This module imports nothing of spec.ts
 * (spec.ts imports these).
 */

const text = z.string({ message: 'is required' }).trim().min(1, 'is required');
/** An id written as a number or a text, read as its text. */
const id = z.preprocess((value) => (typeof value === 'number' ? String(value) : value), text);

/** An EnvVar written as a text, `{value}` or `{valueFrom}` (secretKeyRef, configMapKeyRef, helmRef, serviceAccount). */
const envValue = z.union([
  z.string(),
  z.object({ name: z.string().optional(), value: z.string().optional(), valueFrom: z.record(z.string(), z.unknown()).optional() }),
], { message: 'must be a text, {value} or {valueFrom}' });

/** A JSON object written in YAML (Azure DevOps resources, variables, …). */
const anyObject = z.record(z.string(), z.unknown(), { message: 'must be a mapping' });

/** A number written as a number or a text, or a template of one (MC writes `limit: $(.params.limit)`): checked again once rendered. */
const count = z.union([z.number().int().positive(), z.string().regex(/^\s*\d+\s*$|\$\(|\{\{/, 'must be a whole number')], { message: 'must be a whole number' });

/** GitOpsAction: clone `repo`, write `files`, apply `patches`, `commit`, push, open `pr`. */
export const gitopsActionSchema = z.object({
  repo: z.object({
    url: text,
    connection: z.string().optional(),
    /** The branch cloned (default: `main`, else the remote's default branch). */
    base: z.string().optional(),
    /** The branch created and pushed (default: base). */
    branch: z.string().optional(),
    /** duty's Authentication, inline: credentials when no connection gives them. */
    username: envValue.optional(),
    password: envValue.optional(),
    /** Do not push when the branch exists on the remote already. */
    skipExisting: z.boolean().optional(),
    /** Push with --force (the branch starts from base even when it exists). */
    force: z.boolean().optional(),
    /** Where the repository is hosted, for the pull request: github or azure_devops (deduced from the URL or connection otherwise). */
    type: z.string().optional(),
  }, { message: 'is required: {url, base, branch, connection}' }),
  commit: z.object({ author: text, email: text, message: text }, { message: 'is required: {author, email, message}' }),
  pr: z.object({ title: text, tags: z.array(z.string()).optional() }).optional(),
  patches: z.array(z.object({ path: text, yq: z.string().optional(), jq: z.string().optional() })).optional(),
  /** `content: $delete` removes the file. */
  files: z.array(z.object({ path: text, content: z.string({ message: 'is required (use $delete to remove the file)' }) })).optional(),
});
export type GitopsActionSpec = z.infer<typeof gitopsActionSchema>;

/** GithubAction: dispatches each workflow of `username/repo` with the personal access `token`. */
export const githubActionSchema = z.object({
  /** The repository's name (or `owner/name`). */
  repo: text,
  /** The repository's owner. */
  username: z.string().optional(),
  token: envValue,
  workflows: z.array(z.object({
    /** The workflow's id or file name (`deploy.yaml`). */
    id,
    /** Branch or tag; `main` by default. */
    ref: z.string().optional(),
    /** The inputs as a JSON object in a text. */
    input: z.string().optional(),
  })).min(1, 'give at least one workflow'),
});
export type GithubActionSpec = z.infer<typeof githubActionSchema>;

/** AzureDevopsPipelineAction: runs `pipeline` of `org`/`project` with the PAT `token`. */
export const azureDevopsPipelineActionSchema = z.object({
  org: text,
  project: text,
  token: envValue,
  pipeline: z.object({
    id,
    version: z.union([z.string(), z.number().transform(String)]).optional(),
    apiVersion: z.string().optional(),
  }, { message: 'is required: {id}' }),
  parameters: z.object({
    resources: anyObject.optional(),
    templateParameters: anyObject.optional(),
    variables: anyObject.optional(),
    stagesToSkip: z.array(z.string()).optional(),
    previewRun: z.boolean().optional(),
    yamlOverride: z.string().optional(),
  }).optional(),
});
export type AzureDevopsPipelineActionSpec = z.infer<typeof azureDevopsPipelineActionSchema>;

/**
 * A PromQL instant query through a prometheus `connection` or a `url` (with the http action's
 * credentials). Mission Control's published schema has no prometheus block yet: these names follow its
 * HTTPConnection and canary-checker's prometheus check (`query`).
 */
export const prometheusActionSchema = z.object({
  connection: z.string().optional(),
  url: z.string().optional(),
  query: text,
  username: envValue.optional(),
  password: envValue.optional(),
  bearer: envValue.optional(),
});
export type PrometheusActionSpec = z.infer<typeof prometheusActionSchema>;

/**
 * AIAction's client and prompts (AIActionClient: connection, apiKey, backend, model, apiURL). Its context
 * fields (config, changes, analysis, relationships, playbooks, recommendPlaybooks, formats) are not read
 * here, so spec.ts warns they are ignored.
 */
export const aiActionSchema = z.object({
  connection: z.string().optional(),
  apiKey: envValue.optional(),
  backend: z.string().optional(),
  model: z.string().optional(),
  apiURL: z.string().optional(),
  systemPrompt: z.string().optional(),
  prompt: text,
  dryRun: z.boolean().optional(),
});
export type AiActionSpec = z.infer<typeof aiActionSchema>;

/** The time range and limit Mission Control's cloudwatch, kubernetes and loki blocks share. */
const timeRange = {
  start: z.string().optional(),
  end: z.string().optional(),
  limit: count.optional(),
};

/**
 * LogsAction: one backend of loki, cloudwatch, opensearch, kubernetes (Mission Control's), or `backend`:
 * this console's own LogBackend (files), by name or by the component whose logs it holds.
 */
export const logsActionSchema = z.object({
  loki: z.object({
    connection: z.string().optional(),
    url: z.string().optional(),
    /** The older name of url. */
    baseURL: z.string().optional(),
    username: envValue.optional(),
    password: envValue.optional(),
    query: text,
    since: z.string().optional(),
    direction: z.enum(['forward', 'backward'], { message: 'must be forward or backward' }).optional(),
    ...timeRange,
  }).optional(),
  cloudwatch: anyObject.optional(),
  /** Mission Control's Go field name; its docs write cloudwatch. */
  cloudWatch: anyObject.optional(),
  opensearch: anyObject.optional(),
  openSearch: anyObject.optional(),
  kubernetes: anyObject.optional(),
  backend: z.object({
    /** The LogBackend's name. */
    name: z.string().optional(),
    /** A component id: the backends that hold its logs. */
    component: z.string().uuid('must be a component id (UUID)').optional(),
    /** Text a line contains (case-insensitive); every line when empty. */
    query: z.string().optional(),
    ...timeRange,
  }).optional(),
});
export type LogsActionSpec = z.infer<typeof logsActionSchema>;

/** A bool written as a bool or as a template rendering to one (Mission Control's TemplatedBool). */
const templatedBool = z.union([z.boolean(), z.string()], { message: 'must be true, false or a template giving one' });

/**
 * ReportAction: a catalog report (config items, their changes, insights, relationships, access) or a
 * view's export, rendered by Mission Control's facet renderer from a TSX template to HTML or PDF (or its
 * data as JSON) and stored as an artifact. Read and checked here, not run (spec.ts RUN_TYPES).
 */
export const reportActionSchema = z.object({
  view: z.string().optional(),
  title: z.string().optional(),
  configs: anyObject.optional(),
  configsFromParams: z.boolean().optional(),
  file: z.object({
    path: z.string().optional(),
    git: z.object({ connection: z.string().optional(), url: z.string().optional(), base: z.string().optional(), file: z.string().optional() }).optional(),
  }).optional(),
  format: z.string().optional(),
  variables: z.record(z.string(), z.string(), { message: 'must be a map of texts' }).optional(),
  facet: anyObject.optional(),
  since: z.string().optional(),
  recursive: templatedBool.optional(),
  groupBy: z.string().optional(),
  changeArtifacts: templatedBool.optional(),
  expandGroups: templatedBool.optional(),
  audit: templatedBool.optional(),
  filters: z.array(z.string()).optional(),
  sections: z.record(z.string(), templatedBool).optional(),
});
export type ReportActionSpec = z.infer<typeof reportActionSchema>;

/** Mission Control's ReportAction.Validate: one source of config items, and one kind of template file. */
export function reportActionProblems(report: ReportActionSpec): string[] {
  const problems: string[] = [];
  if (report.view && (report.configs || report.configsFromParams || report.file)) problems.push('view is mutually exclusive with configs, configsFromParams and file');
  if (report.configs && report.configsFromParams) problems.push('configs and configsFromParams are mutually exclusive');
  if (report.file && Boolean(report.file.path) === Boolean(report.file.git)) problems.push('file needs exactly one of path or git');
  if (!report.view && !report.configs && !report.configsFromParams) problems.push('needs view, configs or configsFromParams');
  return problems;
}
