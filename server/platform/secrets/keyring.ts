import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { codeOf } from '../errors';
import { ENCRYPTED_PREFIX } from '../../../common/connections';

/**
 * The keys secret values are encrypted with (AES-256-GCM), held outside the database: the file
 * `secret.key` in the data directory (mode 0600, made on first start) or `WATCHKEEPER_SECRET_KEY`.
 * Each value carries the id of its key (`wk:1:<kid>:<base64 iv|ciphertext|tag>`), so several keys can be
 * in use at once: the first is the one new values are written with, the others still read the values
 * written before a rotation (`watchkeeper secrets rotate`).
 */

export const KEY_FILE = 'secret.key';
export const SECRET_KEY_ENV = 'WATCHKEEPER_SECRET_KEY';
const VERSION = '1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class KeyringError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeyringError';
  }
}

/** A key's id: the first 8 hex digits of its SHA-256, so the same key has the same id everywhere. */
export function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/** Keys as written in the file or the variable: base64 keys of 32 bytes, separated by commas or lines. */
export function parseKeys(text: string, where: string): Buffer[] {
  const keys = text
    .split(/[\s,]+/)
    .map((part) => part.trim())
    .filter((part) => part !== '' && !part.startsWith('#'))
    .map((part, index) => {
      const key = Buffer.from(part, 'base64');
      if (key.length !== 32) throw new KeyringError(`${where}: key ${index + 1} is not 32 bytes of base64 (make one with: openssl rand -base64 32)`);
      return key;
    });
  if (keys.length === 0) throw new KeyringError(`${where}: holds no key`);
  return keys;
}

export class Keyring {
  private readonly byId = new Map<string, Buffer>();
  private active: string;
  private fileTime = 0;

  /** `file`: the key file the keys came from, read again when it changes (a rotation by another process). */
  constructor(keys: readonly Buffer[], private readonly file?: string) {
    this.active = this.take(keys);
    if (file) this.fileTime = fs.statSync(file).mtimeMs;
  }

  private take(keys: readonly Buffer[]): string {
    const first = keys[0];
    if (!first) throw new KeyringError('no secret key');
    for (const key of keys) this.byId.set(keyId(key), key);
    return keyId(first);
  }

  /** The key new values are written with. */
  get activeId(): string {
    this.refresh();
    return this.active;
  }

  /** Reads the key file again when it changed since it was read, so every instance follows a rotation. */
  refresh(): void {
    if (!this.file) return;
    let time: number;
    try {
      time = fs.statSync(this.file).mtimeMs;
    } catch {
      return;
    }
    if (time === this.fileTime) return;
    this.fileTime = time;
    this.active = this.take(readKeyFile(this.file));
  }

  get ids(): string[] {
    return [...this.byId.keys()];
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  encrypt(plain: string): string {
    const id = this.activeId;
    const key = this.byId.get(id);
    if (!key) throw new Error(`the active key ${id} is not in the keyring`);
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const body = Buffer.concat([iv, cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${ENCRYPTED_PREFIX}${VERSION}:${id}:${body.toString('base64')}`;
  }

  /** The id of the key a value was encrypted with; undefined for a value that is not encrypted. */
  static keyIdOf(value: string): string | undefined {
    if (!isEncrypted(value)) return undefined;
    return value.split(':')[2];
  }

  decrypt(value: string): string {
    const [prefix, version, id, body] = value.split(':');
    if (`${prefix}:` !== ENCRYPTED_PREFIX || version !== VERSION || !id || body === undefined) throw new KeyringError('the value is not an encrypted secret');
    let key = this.byId.get(id);
    if (!key) {
      // Another process rotated: the key file now holds the new key.
      this.refresh();
      key = this.byId.get(id);
    }
    if (!key) throw new KeyringError(`a secret is encrypted with key ${id}, which this server does not hold (set ${SECRET_KEY_ENV} or copy the ${KEY_FILE} file of the instance that wrote it)`);
    const raw = Buffer.from(body, 'base64');
    if (raw.length < IV_BYTES + TAG_BYTES) throw new KeyringError('a secret value is damaged');
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new KeyringError(`a secret value does not decrypt with key ${id} (damaged, or the key changed)`);
    }
  }
}

export function isEncrypted(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(ENCRYPTED_PREFIX);
}

function readKeyFile(file: string): Buffer[] {
  return parseKeys(fs.readFileSync(file, 'utf8'), file);
}

/**
 * The keyring of this process: `WATCHKEEPER_SECRET_KEY` when set, else the key file of the data
 * directory, made (32 random bytes, mode 0600) when it does not exist yet.
 */
export function loadKeyring(dataDir: string, env: NodeJS.ProcessEnv = process.env): Keyring {
  const fromEnv = env[SECRET_KEY_ENV];
  if (fromEnv && fromEnv.trim() !== '') return new Keyring(parseKeys(fromEnv, SECRET_KEY_ENV));
  const file = path.join(dataDir, KEY_FILE);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true });
    // Written whole under another name, then linked into place: a process starting at the same moment
    // reads either no file or the complete one, and the first link wins.
    const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    fs.writeFileSync(temp, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
    try {
      fs.linkSync(temp, file);
    } catch (error) {
      if (codeOf(error) !== 'EEXIST') throw error;
    } finally {
      fs.rmSync(temp, { force: true });
    }
  }
  const mode = fs.statSync(file).mode & 0o777;
  if ((mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
  return new Keyring(readKeyFile(file), file);
}

/**
 * Puts a new key first in the key file (the old ones stay after it, to read values not yet
 * re-encrypted); answers the new keyring. With WATCHKEEPER_SECRET_KEY the operator lists the new key
 * first instead, and nothing is written.
 */
export function addKey(dataDir: string, env: NodeJS.ProcessEnv = process.env): Keyring {
  if (env[SECRET_KEY_ENV] && env[SECRET_KEY_ENV].trim() !== '') return loadKeyring(dataDir, env);
  const file = path.join(dataDir, KEY_FILE);
  const old = fs.existsSync(file) ? readKeyFile(file) : [];
  const keys = [randomBytes(32), ...old];
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, `${keys.map((key) => key.toString('base64')).join('\n')}\n`, { mode: 0o600 });
  fs.renameSync(temp, file);
  return new Keyring(keys, file);
}

/** Drops keys no value uses any more from the key file (after a rotation completed). */
export function retireKeys(dataDir: string, keep: readonly string[], env: NodeJS.ProcessEnv = process.env): string[] {
  if (env[SECRET_KEY_ENV] && env[SECRET_KEY_ENV].trim() !== '') return [];
  const file = path.join(dataDir, KEY_FILE);
  const keys = readKeyFile(file);
  const kept = keys.filter((key, index) => index === 0 || keep.includes(keyId(key)));
  const dropped = keys.filter((key) => !kept.includes(key)).map(keyId);
  if (dropped.length === 0) return [];
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, `${kept.map((key) => key.toString('base64')).join('\n')}\n`, { mode: 0o600 });
  fs.renameSync(temp, file);
  return dropped;
}
