import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHarness, outcome, result, validate } from '../testing/check-harness';

/**
 * exec as canary-checker runs it (checks/exec.go over duty's shell): the variables of duty's ExecDetails,
 * stderr as the failure message, env, shebang interpreters, and the artifacts a run names.
 */
let work = '';
beforeAll(async () => {
  work = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-exec-test-'));
  // Scripts write here; as root they run as WATCHKEEPER_EXEC_USER (nobody), which may not enter a 0700 folder of root's.
  await fs.chmod(work, 0o777);
});
afterAll(async () => {
  await fs.rm(work, { recursive: true, force: true });
  await closeHarness();
});

const text = (content: Buffer | undefined) => content?.toString('utf8');

describe('exec variables and verdicts', () => {
  it('gives results as duty’s ExecDetails (stdout and stderr trimmed) and keeps stdout, stderr and exitCode', async () => {
    const ran = await outcome('exec', { name: 'x', script: 'printf "  hello\\n\\n"; printf " warn \\n" >&2' });
    expect(ran.pass).toBe(true);
    expect(ran.message).toBe('hello');
    expect(ran.data).toMatchObject({ stdout: 'hello', stderr: 'warn', exitCode: 0 });
    expect(ran.data.results).toEqual({ stdout: 'hello', stderr: 'warn', exitCode: 0, path: expect.stringMatching(/\/bash$/), args: [expect.stringMatching(/\/bash$/), '-c', 'printf "  hello\\n\\n"; printf " warn \\n" >&2'] });
  });

  it('trims as Go’s strings.TrimSpace: NEL and no-break spaces go, a byte-order mark stays', async () => {
    const ran = await outcome('exec', { name: 'x', script: "printf '\\xc2\\xa0\\xc2\\x85 hi \\xe3\\x80\\x80\\n'; printf '\\xef\\xbb\\xbfbom\\n' >&2" });
    expect(ran.data.stdout).toBe('hi');
    expect(ran.data.stderr).toBe('\ufeffbom');
  });

  it('passes and fails canary-checker’s own fixtures: results.stdout in a test, env values', async () => {
    expect(await result('exec', { name: 'exec-pass-check', script: 'echo "hello"\n', test: { expr: 'results.stdout == "hello"' } })).toMatchObject({ pass: true });
    expect(await result('exec', { name: 'exec-fail-check', script: 'echo "hi there"\n', test: { expr: 'results.stdout == "hello"' } })).toMatchObject({ pass: false });
    const env = { name: 'exec-env', script: 'echo -n ${FL_HELLO} ${FL_WORLD}\n', env: [{ name: 'FL_HELLO', value: 'hello' }, { name: 'FL_WORLD', value: 'world' }], test: { expr: 'results.stdout == "hello world"' } };
    expect(await result('exec', env)).toMatchObject({ pass: true });
    expect(await result('exec', { ...env, test: { expr: 'results.exitCode == 0 && exitCode == 0' } })).toMatchObject({ pass: true });
  });

  it('fails with the whole of stderr as its message, or "exit code N" when stderr is empty', async () => {
    const noisy = await outcome('exec', { name: 'x', script: 'echo first >&2; echo second >&2; exit 2' });
    expect(noisy).toMatchObject({ pass: false, message: 'first\nsecond' });
    expect(noisy.data.results).toMatchObject({ exitCode: 2, stderr: 'first\nsecond' });
    expect(await outcome('exec', { name: 'x', script: 'exit 3' })).toMatchObject({ pass: false, message: 'exit code 3' });
    // A passing script may write to stderr: only the exit code decides.
    expect(await outcome('exec', { name: 'x', script: 'echo careful >&2' })).toMatchObject({ pass: true });
  });

  it('sees the canary’s env and the check’s env, the check’s winning, and none of the server’s secrets', async () => {
    process.env.WK_TEST_SERVER_SECRET = 'server-only';
    try {
      const ran = await outcome('exec', { name: 'x', script: 'echo "$A $B ${WK_TEST_SERVER_SECRET:-unset}"', env: [{ name: 'B', value: 'check' }] }, { A: 'canary', B: 'canary' });
      expect(ran.data.stdout).toBe('canary check unset');
    } finally {
      delete process.env.WK_TEST_SERVER_SECRET;
    }
  });

  it('runs the interpreter of a shebang (duty adds -e for node), with the #! line left out', async () => {
    const ran = await outcome('exec', { name: 'x', script: '#!/usr/bin/env node\nconsole.log(JSON.stringify({ n: 1 + 1 }))' });
    expect(ran).toMatchObject({ pass: true, data: { stdout: '{"n":2}' } });
    expect(ran.data.results).toMatchObject({ path: expect.stringMatching(/\/node$/), args: [expect.stringMatching(/\/node$/), '-e', 'console.log(JSON.stringify({ n: 1 + 1 }))'] });
    const sh = await outcome('exec', { name: 'x', script: '#!/bin/sh\necho "$0"' });
    expect(sh.data.stdout).toBe('/bin/sh');
  });

  it('runs each time in a fresh working directory of its own', async () => {
    const first = await outcome('exec', { name: 'x', script: 'pwd; ls -A | wc -l; touch left-over' });
    const second = await outcome('exec', { name: 'x', script: 'pwd; ls -A | wc -l' });
    const [dirA, countA] = String(first.data.stdout).split('\n');
    const [dirB, countB] = String(second.data.stdout).split('\n');
    expect(dirA).not.toBe(dirB);
    expect([countA?.trim(), countB?.trim()]).toEqual(['0', '0']);
    await expect(fs.stat(dirA ?? '')).rejects.toThrow();
  });
});

describe('exec artifacts', () => {
  it('collects a glob, a single file and /dev/stdout, as canary-checker’s exec_artifact fixture names them', async () => {
    const results = path.join(work, 'exec-results');
    const random = path.join(work, 'random-text');
    const script = `mkdir -p ${results} && echo "hello" > ${results}/hello && echo "world" > ${results}/world && echo "random" > ${random} && echo "to stdout"`;
    const ran = await outcome('exec', { name: 'exec-pass-with-artifact', script, artifacts: [{ path: `${results}/*` }, { path: random }, { path: '/dev/stdout' }] });
    expect(ran.pass).toBe(true);
    expect(ran.artifacts?.map((artifact) => [artifact.path, text(artifact.content)])).toEqual([
      [`${results}/hello`, 'hello\n'],
      [`${results}/world`, 'world\n'],
      [random, 'random\n'],
      ['stdout', 'to stdout'],
    ]);
  });

  it('takes /dev/stderr, relative paths under the working directory, ** and {a,b}, and says what matched nothing', async () => {
    const script = 'mkdir -p out/a/b && echo one > out/a/b/one.txt && echo two > out/two.log && echo skip > out/skip.bin && echo oops >&2';
    const ran = await outcome('exec', {
      name: 'x',
      script,
      artifacts: [{ path: '/dev/stderr' }, { path: 'out/**/*.txt' }, { path: 'out/*.{log,md}' }, { path: 'missing/*' }, { path: 'out/a' }],
    });
    expect(ran.artifacts?.map((artifact) => [path.basename(artifact.path), text(artifact.content)])).toEqual([
      ['stderr', 'oops'],
      ['one.txt', 'one\n'],
      ['two.log', 'two\n'],
    ]);
    expect(ran.details?.artifactsSkipped).toEqual(['missing/* matched no file', expect.stringMatching(/\/out\/a is a directory; name its files/)]);
  });

  it('collects artifacts of a failing script too, and reads no more than the per-artifact limit of a big file', async () => {
    const big = path.join(work, 'big.log');
    const ran = await outcome('exec', { name: 'x', script: `truncate -s 12M ${big}; echo broken >&2; exit 1`, artifacts: [{ path: big }] });
    expect(ran).toMatchObject({ pass: false, message: 'broken' });
    expect(ran.artifacts?.[0]).toMatchObject({ path: big, size: 12 * 1024 * 1024 });
    expect(ran.artifacts?.[0]?.content.length).toBe(10 * 1024 * 1024);
  });

  it('refuses files past the per-run limit with a note in the error, without reading them', async () => {
    const dir = path.join(work, 'many');
    const ran = await outcome('exec', { name: 'x', script: `mkdir -p ${dir} && for n in 1 2 3 4 5 6; do truncate -s 10M ${dir}/part-$n; done`, artifacts: [{ path: `${dir}/part-*` }] });
    expect(ran.pass).toBe(true);
    expect(ran.artifacts?.map((artifact) => path.basename(artifact.path))).toEqual(['part-1', 'part-2', 'part-3', 'part-4', 'part-5']);
    expect(ran.error).toBe(`artifact ${dir}/part-6 (10.0 MiB) was not kept: a run's artifacts may take at most 50.0 MiB`);
  });
});

describe('exec fields at apply', () => {
  it('warns of connections, relationships and valueFrom by name, refuses unknown checkout fields', () => {
    const checked = validate('exec', {
      name: 'aws-exec-check',
      script: 'aws s3 ls | head -n 1',
      connections: { aws: { connection: 'connection://AWS/flanksource' } },
      relationships: { components: [] },
      env: [{ name: 'TOKEN', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }],
      checkout: { url: 'https://github.com/org/repo', branh: 'main' },
    });
    expect(checked.warnings).toEqual([
      'spec.exec[0].connections is not supported for exec checks; it is ignored',
      'spec.exec[0].relationships is not supported for exec checks; it is ignored',
    ]);
    expect(checked.errors).toEqual(['spec.exec[0].checkout: is not a field of checkout (url, connection, username, password, certificate, type, branch, depth, destination): branh']);
  });

  it('accepts every field of canary-checker’s ExecCheck it runs, and needs a checkout URL', () => {
    const full = {
      name: 'x',
      script: 'ls',
      env: [{ name: 'A', value: '1' }],
      checkout: { url: 'https://github.com/org/repo?ref=v1', username: { value: 'u' }, password: 'p', certificate: { value: 'k' }, type: 'github', branch: 'main', depth: 2, destination: '/tmp/x' },
      artifacts: [{ path: '/dev/stdout' }],
    };
    expect(validate('exec', full)).toMatchObject({ errors: [], warnings: [] });
    expect(validate('exec', { name: 'x', script: 'ls', checkout: { branch: 'main' } }).errors).toEqual(['spec.exec[0].checkout.url: is required']);
    expect(validate('exec', { name: 'x', script: 'ls', artifacts: [{ path: '' }] }).errors).toEqual(['spec.exec[0].artifacts[0].path: is required']);
  });

  it('does not run a checkout whose connection was not read first (the engine fills url and credentials from it)', async () => {
    const ran = await outcome('exec', { name: 'x', script: 'ls', checkout: { connection: 'connection://git/repo' } });
    expect(ran).toMatchObject({ pass: false, message: expect.stringContaining('was not read before the check ran') });
  });
});
