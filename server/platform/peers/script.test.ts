import { describe, expect, it } from 'vitest';
import { runScript, scriptCommand, trimSpace } from './script';

describe('scripts as duty’s shell runs them', () => {
  it('picks the interpreter of a shebang, adding its inline flag as duty does', () => {
    const PATH = process.env.PATH;
    expect(scriptCommand('echo hi', PATH)).toEqual({ interpreter: 'bash', args: ['-c', 'echo hi'] });
    expect(scriptCommand('#!/usr/bin/env python3\nprint(1)', PATH)).toEqual({ interpreter: 'python3', args: ['-c', 'print(1)'] });
    expect(scriptCommand('#!/usr/bin/env node\nconsole.log(1)', PATH)).toEqual({ interpreter: 'node', args: ['-e', 'console.log(1)'] });
    expect(scriptCommand('#!/usr/bin/python3 -u\nprint(1)', PATH)).toEqual({ interpreter: '/usr/bin/python3', args: ['-u', '-c', 'print(1)'] });
    expect(scriptCommand('#!/bin/sh\necho $0', PATH)).toEqual({ interpreter: '/bin/sh', args: ['-c', 'echo $0'] });
    expect(scriptCommand('#!/bin/bash -e\n#!ignored\necho x', PATH)).toEqual({ interpreter: '/bin/bash', args: ['-e', 'echo x'] });
    expect(scriptCommand('echo x', '/nowhere')).toEqual({ interpreter: 'sh', args: ['-c', 'echo x'] });
  });

  it('trims as Go’s strings.TrimSpace', () => {
    expect(trimSpace('\u0085\u00a0\t x \n\u3000')).toBe('x');
    expect(trimSpace('\ufeffx\n')).toBe('\ufeffx');
    expect(trimSpace(' a \n b ')).toBe('a \n b');
  });

  it('stops the script and what it started when the signal aborts', async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 200);
    const ran = await runScript('sleep 30 & sleep 30; wait', { signal: controller.signal });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(ran).toMatchObject({ exitCode: null, signal: 'SIGKILL', error: expect.any(Error) });
  });

  it('does not wait for a background process that keeps the output open', async () => {
    const started = Date.now();
    const ran = await runScript('echo done; sleep 30 &', { signal: new AbortController().signal });
    expect(ran).toMatchObject({ stdout: 'done\n', exitCode: 0 });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('keeps the first bytes of each stream and says when it cut them', async () => {
    const ran = await runScript('head -c 100 /dev/zero | tr "\\0" a; head -c 50 /dev/zero | tr "\\0" b >&2', { signal: new AbortController().signal, maxOutput: 10, maxError: 60 });
    expect(ran).toMatchObject({ stdout: 'a'.repeat(10), truncated: true, stderr: 'b'.repeat(50), stderrTruncated: false });
  });
});

describe('a script never outlives the process that ran it', () => {
  it('is killed, with what it started, when that process is killed -9', async () => {
    const { spawn } = await import('node:child_process');
    const { chmod, mkdtemp, readFile, rm } = await import('node:fs/promises');
    const os = await import('node:os');
    const path = await import('node:path');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'wk-orphan-'));
    // Writable by the unprivileged user scripts run as when the tests run as root.
    await chmod(dir, 0o777);
    const pidFile = path.join(dir, 'pids');
    const runner = `import { runScript } from ${JSON.stringify(path.resolve('server/platform/peers/script.ts'))};
      runScript('sleep 60 & echo $$ $! > ${pidFile}; sleep 60', { signal: new AbortController().signal });
      setInterval(() => undefined, 1000);`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', runner], { stdio: 'ignore' });
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    try {
      let pids: number[] = [];
      for (let i = 0; i < 200 && pids.length < 2; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        pids = (await readFile(pidFile, 'utf8').catch(() => '')).trim().split(/\s+/).filter(Boolean).map(Number);
      }
      expect(pids).toHaveLength(2);
      expect(pids.every(alive)).toBe(true);
      child.kill('SIGKILL');
      for (let i = 0; i < 100 && pids.some(alive); i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(pids.filter(alive)).toEqual([]);
    } finally {
      child.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    }
  }, 20_000);

  it('reports a missing interpreter as before, and leaves nothing running after a normal end', async () => {
    const missing = await runScript('#!/nowhere/interpreter\nx', { signal: new AbortController().signal });
    expect(missing.error?.message).toContain('ENOENT');
    const started = Date.now();
    const ran = await runScript('echo out; echo err >&2; exit 3', { signal: new AbortController().signal });
    expect(ran).toMatchObject({ stdout: 'out\n', stderr: 'err\n', exitCode: 3, signal: null });
    expect(Date.now() - started).toBeLessThan(1500);
  });
});
