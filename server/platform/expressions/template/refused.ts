/**
 * Names gomplate (or Go templates elsewhere) has that this engine refuses by design, with the reason its
 * parse error gives instead of Go's `function "x" not defined`: each would let whoever writes a template read
 * the server's files, environment, network interfaces or cloud credentials, or run commands on it.
 * flanksource/gomplate, which canary-checker and Mission Control run, registers none of them either.
 */
const REFUSED: Record<string, string> = {
  env: "it reads the server's environment variables",
  getenv: "it reads the server's environment variables",
  expandenv: "it reads the server's environment variables",
  file: "it reads and writes the server's files",
  datasource: "it reads files and URLs from the server",
  ds: "it reads files and URLs from the server",
  datasourceExists: "it reads files and URLs from the server",
  datasourceReachable: "it reads files and URLs from the server",
  defineDatasource: "it reads files and URLs from the server",
  include: "it reads files and URLs from the server",
  sockaddr: "it reads the server's network interfaces and addresses",
  aws: "it calls cloud metadata services with the server's credentials",
  gcp: "it calls cloud metadata services with the server's credentials",
  exec: 'it runs commands on the server',
  shell: 'it runs commands on the server',
  command: 'it runs commands on the server',
};

/** The refusal of a name refused by design, or undefined for any other name. */
export function refusedFunction(name: string): string | undefined {
  const reason = Object.hasOwn(REFUSED, name) ? REFUSED[name] : undefined;
  return reason && `function ${JSON.stringify(name)} is refused by design: ${reason}`;
}
