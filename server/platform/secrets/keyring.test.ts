import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { addKey, isEncrypted, Keyring, KeyringError, loadKeyring, retireKeys } from './keyring';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'wk-keys-'));

describe('keyring', () => {
  it('encrypts with AES-256-GCM under a key id, a new IV each time, and decrypts', () => {
    const keyring = new Keyring([randomBytes(32)]);
    const a = keyring.encrypt('s3cret');
    const b = keyring.encrypt('s3cret');
    expect(a).toMatch(new RegExp(`^wk:1:${keyring.activeId}:[A-Za-z0-9+/=]+$`));
    expect(a).not.toBe(b);
    expect(a).not.toContain('s3cret');
    expect(isEncrypted(a)).toBe(true);
    expect(keyring.decrypt(a)).toBe('s3cret');
    expect(keyring.decrypt(keyring.encrypt(''))).toBe('');
  });

  it('refuses a tampered value and a value under a key it does not hold, naming the key', () => {
    const keyring = new Keyring([randomBytes(32)]);
    const value = keyring.encrypt('s3cret');
    const body = Buffer.from(value.split(':')[3] ?? '', 'base64');
    body[14] = (body[14] ?? 0) ^ 1;
    expect(() => keyring.decrypt(`wk:1:${keyring.activeId}:${body.toString('base64')}`)).toThrow(KeyringError);
    const other = new Keyring([randomBytes(32)]);
    expect(() => other.decrypt(value)).toThrow(`a secret is encrypted with key ${keyring.activeId}, which this server does not hold`);
  });

  it('makes the key file once with mode 0600 and reads the same key on the next start', () => {
    const dir = tmp();
    const first = loadKeyring(dir, {});
    expect(fs.statSync(path.join(dir, 'secret.key')).mode & 0o777).toBe(0o600);
    const second = loadKeyring(dir, {});
    expect(second.activeId).toBe(first.activeId);
    expect(second.decrypt(first.encrypt('x'))).toBe('x');
    expect(fs.readdirSync(dir)).toEqual(['secret.key']);
  });

  it('reads WATCHKEEPER_SECRET_KEY (the first of several writes) and refuses a key of the wrong size', () => {
    const [a, b] = [randomBytes(32), randomBytes(32)];
    const keyring = loadKeyring(tmp(), { WATCHKEEPER_SECRET_KEY: `${a.toString('base64')},${b.toString('base64')}` });
    expect(keyring.ids).toHaveLength(2);
    expect(new Keyring([b]).decrypt(new Keyring([b]).encrypt('y'))).toBe('y');
    expect(keyring.decrypt(new Keyring([b]).encrypt('y'))).toBe('y');
    expect(() => loadKeyring(tmp(), { WATCHKEEPER_SECRET_KEY: 'c2hvcnQ=' })).toThrow('key 1 is not 32 bytes of base64');
  });

  it('follows a rotation made by another process: the new key writes, the old one still reads; retired keys leave the file', () => {
    const dir = tmp();
    const running = loadKeyring(dir, {});
    const old = running.encrypt('before');
    const oldId = running.activeId;
    const rotated = addKey(dir, {});
    expect(rotated.activeId).not.toBe(oldId);
    // The file changed: the running instance picks the new key for writes (mtime can be equal within a tick).
    fs.utimesSync(path.join(dir, 'secret.key'), new Date(), new Date(Date.now() + 2000));
    expect(Keyring.keyIdOf(running.encrypt('after'))).toBe(rotated.activeId);
    expect(running.decrypt(old)).toBe('before');
    expect(retireKeys(dir, [rotated.activeId], {})).toEqual([oldId]);
    expect(loadKeyring(dir, {}).ids).toEqual([rotated.activeId]);
  });
});
