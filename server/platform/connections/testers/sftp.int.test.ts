import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import ssh2, { type Attributes, type SFTPWrapper } from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../db/embedded';
import type { ResolvedConnection, TestOutcome } from '../types';
import { testConnection } from './index';
import { testSftp } from './sftp';

/**
 * The sftp tester against an SSH server this test runs in-process on 127.0.0.1 (ssh2's Server with a key
 * made here): one user and password, and an SFTP subsystem serving a temporary directory with just what a
 * listing needs (OPENDIR, READDIR, CLOSE, REALPATH, STAT).
 */

const { STATUS_CODE } = ssh2.utils.sftp;
const USER = 'backup';
const PASSWORD = 'Sftp-s3cret-pa55';

function connection(fields: Partial<Omit<ResolvedConnection, 'type'>> = {}): ResolvedConnection {
  return { id: '00000000-0000-0000-0000-000000000001', name: 'test', namespace: 'default', type: 'sftp', url: '', username: '', password: '', certificate: '', insecureTLS: false, properties: {}, ...fields };
}

function test(fields: Partial<Omit<ResolvedConnection, 'type'>>, signal = AbortSignal.timeout(10_000)): Promise<TestOutcome> {
  return testConnection(connection(fields), signal);
}

/** Attributes of a file or directory, as SFTP sends them. */
function attrsOf(stats: fs.Stats): Attributes {
  return { mode: stats.mode, uid: stats.uid, gid: stats.gid, size: stats.size, atime: Math.floor(stats.atimeMs / 1000), mtime: Math.floor(stats.mtimeMs / 1000) };
}

/** Serves `root` as the login directory: `.` and relative paths are under it, `/x` is root/x. */
function serveSftp(sftp: SFTPWrapper, root: string): void {
  const local = (remote: string) => {
    const resolved = path.join(root, path.posix.normalize(`/${remote}`));
    return resolved.startsWith(root) ? resolved : root;
  };
  const handles = new Map<string, { dir: string; sent: boolean }>();
  let next = 0;
  sftp.on('REALPATH', (reqid, remote) => {
    const normalized = path.posix.normalize(`/${remote}`);
    sftp.name(reqid, [{ filename: normalized, longname: normalized, attrs: {} as Attributes }]);
  });
  sftp.on('STAT', (reqid, remote) => {
    fs.stat(local(remote), (error, stats) => (error ? sftp.status(reqid, STATUS_CODE.NO_SUCH_FILE) : sftp.attrs(reqid, attrsOf(stats))));
  });
  sftp.on('OPENDIR', (reqid, remote) => {
    const dir = local(remote);
    if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) return sftp.status(reqid, STATUS_CODE.NO_SUCH_FILE, 'No such file');
    const handle = Buffer.from(String(next++));
    handles.set(handle.toString(), { dir, sent: false });
    sftp.handle(reqid, handle);
  });
  sftp.on('READDIR', (reqid, handle) => {
    const open = handles.get(handle.toString());
    if (!open) return sftp.status(reqid, STATUS_CODE.FAILURE);
    if (open.sent) return sftp.status(reqid, STATUS_CODE.EOF);
    open.sent = true;
    // Like a real server, the listing starts with . and .. (the client does not count them).
    const names = ['.', '..', ...fs.readdirSync(open.dir)];
    sftp.name(
      reqid,
      names.map((name) => ({ filename: name, longname: name, attrs: attrsOf(fs.statSync(path.join(open.dir, name))) })),
    );
  });
  sftp.on('CLOSE', (reqid, handle) => {
    handles.delete(handle.toString());
    sftp.status(reqid, STATUS_CODE.OK);
  });
}

let root = '';
let server: ssh2.Server;
let port = 0;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'wk-sftp-'));
  for (const name of ['a.tar', 'b.tar', 'c.tar']) fs.writeFileSync(path.join(root, name), name);
  fs.mkdirSync(path.join(root, 'daily'));
  fs.writeFileSync(path.join(root, 'daily', 'one.tar'), 'one');
  const hostKey = ssh2.utils.generateKeyPairSync('ed25519');
  server = new ssh2.Server({ hostKeys: [hostKey.private], ident: 'WatchkeeperTestSSH_1.0' }, (client) => {
    client.on('error', () => undefined);
    client.on('authentication', (context) => {
      if (context.method === 'password' && context.username === USER && context.password === PASSWORD) return context.accept();
      context.reject(['password']);
    });
    client.on('ready', () => {
      client.on('session', (accept) => {
        const session = accept();
        session.on('sftp', (acceptSftp) => serveSftp(acceptSftp(), root));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  fs.rmSync(root, { recursive: true, force: true });
});

describe('sftp', () => {
  it('lists the login directory with the right password', async () => {
    const outcome = await test({ url: `127.0.0.1:${port}`, username: USER, password: PASSWORD });
    expect(outcome).toEqual({ ok: true, tested: true, message: 'SFTP server WatchkeeperTestSSH_1.0 — 4 entries in .' });
  });

  it('takes the port from properties, or from an sftp:// URL, and lists properties.path', async () => {
    expect(await test({ url: '127.0.0.1', username: USER, password: PASSWORD, properties: { port: String(port), path: 'daily' } })).toEqual({ ok: true, tested: true, message: 'SFTP server WatchkeeperTestSSH_1.0 — 1 entry in daily' });
    expect(await test({ url: `sftp://127.0.0.1:${port}`, username: USER, password: PASSWORD, properties: { port: '22', path: '/daily' } })).toMatchObject({ ok: true, message: expect.stringMatching(/ — 1 entry in \/daily$/) });
  });

  it('a wrong password: authentication failed, and the password is not repeated', async () => {
    const outcome = await test({ url: `sftp://127.0.0.1:${port}`, username: USER, password: 'Wrong-sftp-s3cret' });
    expect(outcome).toMatchObject({ ok: false, tested: true });
    expect(outcome.message).toBe(`authentication failed for user "${USER}" at 127.0.0.1:${port}`);
    expect(outcome.message).not.toContain('Wrong-sftp-s3cret');
    expect(outcome.message).not.toContain(PASSWORD);
  });

  it('a path that does not exist is named', async () => {
    const outcome = await test({ url: `127.0.0.1:${port}`, username: USER, password: PASSWORD, properties: { path: '/no/such/dir' } });
    expect(outcome).toEqual({ ok: false, tested: true, message: `no such path "/no/such/dir" on 127.0.0.1:${port}` });
  });

  it('nothing listening: connection refused', async () => {
    const closed = await freePort();
    const outcome = await test({ url: `127.0.0.1:${closed}`, username: USER, password: PASSWORD });
    expect(outcome).toEqual({ ok: false, tested: true, message: `connection refused by 127.0.0.1:${closed}` });
  });

  it('a peer that never speaks SSH: the tester itself answers when the signal aborts', async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', () => resolve()));
    try {
      const started = Date.now();
      const outcome = await testSftp(connection({ url: `127.0.0.1:${(silent.address() as AddressInfo).port}`, username: USER, password: PASSWORD }), AbortSignal.timeout(300));
      expect(Date.now() - started).toBeLessThan(3000);
      expect(outcome).toEqual({ ok: false, tested: true, message: 'no answer within the time limit' });
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('a host that is not an address, and a missing username, are named without connecting', async () => {
    expect(await test({ url: 'http://files.example.com', username: USER })).toEqual({ ok: false, tested: true, message: 'host must be host, host:port or sftp://host:port' });
    expect(await test({ url: `127.0.0.1:${port}` })).toEqual({ ok: false, tested: true, message: 'username is required' });
    expect((await test({ url: '127.0.0.1:99999', username: USER })).message).toBe('port "99999" is not a port number');
  });
});
