import { formatPath, immutableProblems, locate, type CanaryDocument, type DocPath, type ParsedYaml } from './document';
import { validateJson, type JsonSchema } from './json-schema';
import { toDocPath, warningPath, type ServerProblem } from './problems';

/** A mark in the Code tab's text (CodeMirror's lint diagnostics take this shape). */
export interface TextDiagnostic {
  from: number;
  to: number;
  severity: 'error' | 'warning';
  message: string;
}

/** What POST /api/canary/canaries/validate answered for the text being shown (or a refused save). */
export interface ServerFindings {
  errors: readonly ServerProblem[];
  warnings: readonly string[];
}

export interface DiagnosticsInput {
  parsed: ParsedYaml;
  /** The JSON schema of a spec (GET /api/canary/schema), once loaded. */
  schema?: JsonSchema | undefined;
  /** The saved name and namespace, which the text must keep (null for a new canary). */
  original: Pick<CanaryDocument, 'name' | 'namespace'> | null;
  /** The server's findings for this very text; omitted while they are being fetched. */
  server?: ServerFindings | undefined;
  /** What a person calls the resource, in the unchangeable-name messages; 'health check' by default. */
  noun?: string | undefined;
}

function mark(parsed: ParsedYaml, path: DocPath, severity: TextDiagnostic['severity'], message: string, range?: readonly [number, number]): TextDiagnostic {
  const [from, to] = range ?? locate(parsed.yaml, path);
  const where = formatPath(path);
  return { from, to, severity, message: where ? `${where}: ${message}` : message };
}

/**
 * Every mark of the Code tab: YAML syntax, the Canary's shape and its unchangeable name, the schema's
 * findings at once, and the server's errors and warnings when they are in. A schema finding at a path
 * the server also names gives way to the server's words (the server decides).
 */
export function codeDiagnostics({ parsed, schema, original, server, noun }: DiagnosticsInput): TextDiagnostic[] {
  const out = parsed.problems.map((problem) => mark(parsed, problem.path, 'error', problem.message, problem.range));
  const doc = parsed.doc;
  if (!doc) return out;
  for (const problem of immutableProblems(doc, original, noun)) out.push(mark(parsed, problem.path, 'error', problem.message));
  const serverPaths = new Set((server?.errors ?? []).map((problem) => formatPath(toDocPath(problem.path))));
  if (schema) {
    for (const problem of validateJson(doc.spec, schema, ['spec'])) {
      if (!serverPaths.has(formatPath(problem.path))) out.push(mark(parsed, problem.path, 'error', problem.message));
    }
  }
  for (const problem of server?.errors ?? []) out.push(mark(parsed, toDocPath(problem.path), 'error', problem.message));
  for (const warning of server?.warnings ?? []) {
    const path = warningPath(warning);
    const diagnostic = mark(parsed, path ? toDocPath(path) : ['spec'], 'warning', warning);
    // The warning names its path itself.
    out.push({ ...diagnostic, message: warning });
  }
  const seen = new Set<string>();
  return out
    .filter((diagnostic) => {
      const key = `${diagnostic.from}:${diagnostic.to}:${diagnostic.severity}:${diagnostic.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) => a.from - b.from);
}
