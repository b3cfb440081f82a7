import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { assertGitEgress, GitCheckoutError, gitTarget } from '../../peers/git-checkout';
import type { ConnectionTester, ResolvedConnection } from '../types';
import { failed, passed, reasonOf, secretsOf, shownUrl } from './shared';

/**
 * Secrets reach git through its environment, never its arguments (which `ps` shows): https credentials
 * through a credential helper that reads them back, an SSH key through a file in a private scratch
 * directory, as gitCheckout does.
 */
async function gitEnvironment(connection: ResolvedConnection, ssh: boolean, scratch: string): Promise<{ env: NodeJS.ProcessEnv; config: string[] }> {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, LANG: 'C.UTF-8', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
  const config: string[] = [];
  if (ssh) {
    // Any host key is accepted (as duty's InsecureIgnoreHostKey); BatchMode never asks on a terminal.
    let command = 'ssh -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null';
    if (connection.certificate) {
      const key = path.join(scratch, 'key');
      await fs.writeFile(key, connection.certificate.endsWith('\n') ? connection.certificate : `${connection.certificate}\n`, { mode: 0o600 });
      command += ` -i '${key}' -o IdentitiesOnly=yes`;
    }
    env.GIT_SSH_COMMAND = command;
  } else if (connection.username || connection.password) {
    env.WATCHKEEPER_GIT_USERNAME = connection.username;
    env.WATCHKEEPER_GIT_PASSWORD = connection.password;
    // An empty helper first drops any helper of the server's own git configuration.
    config.push('-c', 'credential.helper=', '-c', 'credential.helper=!f() { test "$1" = get || exit 0; echo "username=$WATCHKEEPER_GIT_USERNAME"; echo "password=$WATCHKEEPER_GIT_PASSWORD"; }; f');
  }
  return { env, config };
}

function lsRemote(args: string[], env: NodeJS.ProcessEnv, signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { env, signal, maxBuffer: 4 * 1024 * 1024, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (!error) return resolve(stdout);
      const lines = stderr.split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('hint:') && !line.startsWith('warning:'));
      // The first fatal line says what went wrong ("'…' does not appear to be a git repository",
      // "Authentication failed for …"); the lines after it are advice.
      const cause = lines.find((line) => /^(fatal|error):/.test(line)) ?? lines.at(-1) ?? error.message;
      reject(new Error(cause.replace(/^(fatal|error):\s*/, '')));
    });
  });
}

/**
 * `git`: `git ls-remote <url> <ref>` (ref from properties.ref, `main` by default; `?ref=` in the url wins,
 * as for checkouts). ok when the remote has that branch, tag or ref: "ref main at <sha>".
 */
export const testGit: ConnectionTester = async (connection, signal) => {
  let target: ReturnType<typeof gitTarget>;
  try {
    target = gitTarget({ url: connection.url, branch: connection.properties.ref });
  } catch (error) {
    return failed(error instanceof GitCheckoutError ? error.message.replace(/^checkout\./, '') : reasonOf(error, signal, secretsOf(connection)));
  }
  const ref = target.branch ?? 'main';
  const ssh = target.ssh || connection.properties.authentication === 'SSH';
  const shown = shownUrl(target.url);
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-git-test-'));
  try {
    await assertGitEgress(target.url);
    const { env, config } = await gitEnvironment(connection, ssh, scratch);
    const output = await lsRemote([...config, 'ls-remote', '--', target.url, ref], env, signal);
    // ls-remote matches the pattern as a suffix (main matches refs/heads/main and refs/remotes/x/main).
    const refs = output
      .split('\n')
      .map((line) => line.split('\t'))
      .filter((parts): parts is [string, string] => parts.length === 2);
    const wanted = [ref, `refs/heads/${ref}`, `refs/tags/${ref}`];
    const found = refs.find(([, name]) => wanted.includes(name)) ?? refs[0];
    if (!found) return failed(`${shown} has no ref ${ref}`);
    return passed(`ref ${ref} at ${found[0]}`);
  } catch (error) {
    return failed(`git ls-remote ${shown}: ${reasonOf(error, signal, secretsOf(connection))}`);
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
};
