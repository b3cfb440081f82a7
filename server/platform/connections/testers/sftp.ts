import ssh2, { type ConnectConfig, type SFTPWrapper } from 'ssh2';
import { codeOf } from '../../errors';
import { isUrlForm } from '../../peers/credentials';
import type { ConnectionTester, ResolvedConnection, TestOutcome } from '../types';
import { failed, passed, reasonOf, secretsOf, TEST_TIMEOUT_MS } from './shared';
import { assertEgressResolved } from '../../egress-connect';
import { propertyOf } from '../../../../common/guards';

const { STATUS_CODE } = ssh2.utils.sftp;

/** A listing stops counting here: the test proves the directory can be read, not how big it is. */
const MAX_ENTRIES = 10_000;

/** `host:port` and `[v6]:port`; a bare host (an IPv6 address without brackets included) has no port. */
const HOST_PORT = /^(\[[^\]]+\]|[^:\s/[\]]+):(\d{1,5})$/;

interface Target {
  host: string;
  port: number;
  username: string;
  password: string;
  path: string;
}

/**
 * Where the test goes, from url (`host`, `host:port` or `sftp://[user[:password]@]host[:port][/path]`),
 * properties.port (22 when neither says), username, password and properties.path (else the URL's path,
 * else `.`, the login directory). A port written in url wins over properties.port.
 */
function targetOf(connection: ResolvedConnection): Target | { error: string } {
  const address = connection.url.trim();
  if (!address) return { error: 'host is required' };
  let host: string;
  let port = '';
  let username = connection.username;
  let password = connection.password;
  let urlPath = '';
  if (isUrlForm(address)) {
    let url: URL;
    try {
      url = new URL(address);
    } catch {
      return { error: 'host must be host, host:port or sftp://host:port' };
    }
    if (url.protocol !== 'sftp:' && url.protocol !== 'ssh:') return { error: 'host must be host, host:port or sftp://host:port' };
    host = url.hostname;
    port = url.port;
    if (!username && url.username) username = decodeURIComponent(url.username);
    if (!password && url.password) password = decodeURIComponent(url.password);
    if (url.pathname && url.pathname !== '/') urlPath = decodeURIComponent(url.pathname);
  } else {
    const hostPort = HOST_PORT.exec(address);
    host = hostPort ? (hostPort[1] ?? '') : address;
    port = hostPort ? (hostPort[2] ?? '') : '';
  }
  host = host.replace(/^\[|\]$/g, '');
  if (!host || /[\s/@]/.test(host)) return { error: 'host must be host, host:port or sftp://host:port' };
  port ||= connection.properties.port?.trim() || '22';
  if (!/^\d+$/.test(port) || Number(port) < 1 || Number(port) > 65535) return { error: `port ${JSON.stringify(port)} is not a port number` };
  if (!username) return { error: 'username is required' };
  return { host, port: Number(port), username, password, path: connection.properties.path?.trim() || urlPath || '.' };
}

/** `host:port` for messages (`[::1]:22` for an IPv6 address). */
const shown = (target: Target) => `${target.host.includes(':') ? `[${target.host}]` : target.host}:${target.port}`;

/** The software part of the server's identification line (`OpenSSH_9.6p1 Ubuntu-3`), printable and short. */
function identOf(line: string): string {
  const text = line
    .replace(/^SSH-[\d.]+-/, '')
    .replace(/[^\x20-\x7e]/g, '')
    .trim();
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/** Opens `path`, counts its entries (without `.` and `..`, at most MAX_ENTRIES) and closes it. */
function countEntries(sftp: SFTPWrapper, path: string): Promise<{ count: number; more: boolean }> {
  return new Promise((resolve, reject) => {
    sftp.opendir(path, (openError, handle) => {
      if (openError) return reject(openError);
      let count = 0;
      const close = (then: () => void) => sftp.close(handle, () => then());
      const next = () =>
        sftp.readdir(handle, (error, list) => {
          if (error && propertyOf(error, 'code') === STATUS_CODE.EOF) return close(() => resolve({ count, more: false }));
          if (error) return close(() => reject(error));
          count += list.length;
          if (count >= MAX_ENTRIES) return close(() => resolve({ count, more: true }));
          next();
        });
      next();
    });
  });
}

/** What an SFTP request's refusal means, naming the path (the server's own words for anything else). */
function listingFailure(error: unknown, target: Target, signal: AbortSignal, secrets: string[]): string {
  const where = `${JSON.stringify(target.path)} on ${shown(target)}`;
  const code = propertyOf(error, 'code');
  if (code === STATUS_CODE.NO_SUCH_FILE) return `no such path ${where}`;
  if (code === STATUS_CODE.PERMISSION_DENIED) return `permission denied listing ${where}`;
  return `could not list ${where}: ${reasonOf(error, signal, secrets)}`;
}

/** What a failed connection or login means, in words that carry no secret. */
function connectFailure(error: unknown, target: Target, signal: AbortSignal, secrets: string[]): string {
  const level = propertyOf(error, 'level');
  const code = codeOf(error);
  if (level === 'client-authentication') return `authentication failed for user ${JSON.stringify(target.username)} at ${shown(target)}`;
  if (code === 'ECONNREFUSED') return `connection refused by ${shown(target)}`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `host ${JSON.stringify(target.host)} not found`;
  if (level === 'client-timeout') return `no SSH handshake with ${shown(target)} within ${TEST_TIMEOUT_MS / 1000} s`;
  return `could not connect to ${shown(target)}: ${reasonOf(error, signal, secrets)}`;
}

/**
 * `sftp`: logs in over SSH with username and password (keyboard-interactive answered with the password
 * too), opens the SFTP subsystem and lists properties.path; ok with the server's software and the number
 * of entries. The host key is not checked: the test proves the login and the listing, not the key.
 */
export const testSftp: ConnectionTester = async (connection, signal) => {
  const target = targetOf(connection);
  if ('error' in target) return failed(target.error);
  if (signal.aborted) return failed('no answer within the time limit');
  const secrets = secretsOf(connection);
  // The egress policy judges the host (and its addresses) before ssh2 connects.
  try {
    await assertEgressResolved(target.host);
  } catch (error) {
    return failed(connectFailure(error, target, signal, secrets));
  }
  const client = new ssh2.Client();
  let ident = '';
  return new Promise<TestOutcome>((resolve) => {
    let done = false;
    const finish = (outcome: TestOutcome) => {
      if (done) return;
      done = true;
      signal.removeEventListener('abort', abort);
      client.end();
      resolve(outcome);
    };
    const abort = () => {
      finish(failed('no answer within the time limit'));
      client.destroy();
    };
    signal.addEventListener('abort', abort, { once: true });
    client.on('error', (error) => finish(failed(connectFailure(error, target, signal, secrets))));
    client.on('close', () => finish(failed(`${shown(target)} closed the connection before the listing`)));
    client.on('keyboard-interactive', (_name, _instructions, _language, prompts, reply) => reply(prompts.map(() => target.password)));
    client.on('ready', () => {
      client.sftp((error, sftp) => {
        if (done) return;
        if (error) return finish(failed(`${shown(target)} does not offer SFTP: ${reasonOf(error, signal, secrets)}`));
        countEntries(sftp, target.path).then(
          ({ count, more }) => finish(passed(`SFTP server ${ident || shown(target)} — ${count}${more ? '+' : ''} ${count === 1 && !more ? 'entry' : 'entries'} in ${target.path}`)),
          (listError: unknown) => finish(failed(listingFailure(listError, target, signal, secrets))),
        );
      });
    });
    const config: ConnectConfig = {
      host: target.host,
      port: target.port,
      username: target.username,
      password: target.password,
      tryKeyboard: true,
      readyTimeout: TEST_TIMEOUT_MS,
      keepaliveInterval: 0,
      // The server's identification line ("SSH-2.0-OpenSSH_9.6"), which ssh2 only reports here.
      debug: (message: string) => {
        const remote = /^Remote ident: (['"`])(.*)\1$/.exec(message);
        if (remote) ident = identOf(remote[2] ?? '');
      },
    };
    try {
      client.connect(config);
    } catch (error) {
      finish(failed(`could not connect to ${shown(target)}: ${reasonOf(error, signal, secrets)}`));
    }
  });
};
