import { hash, verify } from '@node-rs/argon2';

/**
 * argon2id with 64 MiB and 4 passes: one verify takes about 65 ms on the 2-core reference machine
 * (bench/auth.ts prints the figure), inside the 50–150 ms the identity issue asks for.
 */
export const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 65_536, timeCost: 4, parallelism: 1 } as const;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 1000;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(hashed: string, password: string): Promise<boolean> {
  try {
    return await verify(hashed, password);
  } catch {
    return false;
  }
}

// A hash of a random string, verified when no account matches, so that "no such user" takes as long as
// "wrong password" and sign-in timing does not reveal which emails have accounts.
let decoy: Promise<string> | undefined;
export async function verifyDecoy(password: string): Promise<void> {
  decoy ??= hashPassword(`decoy-${Math.random()}`);
  await verifyPassword(await decoy, password);
}

let common: Promise<Set<string>> | undefined;
/** About 49,000 passwords that appear most often in published breaches (zxcvbn's list), loaded once. */
function commonPasswords(): Promise<Set<string>> {
  common ??= import('@zxcvbn-ts/language-common').then(({ dictionary }) => {
    const list: unknown = dictionary['passwords-common'];
    return new Set(Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : []);
  });
  return common;
}

/**
 * Why a password may not be used, or undefined when it may. No network lookup: the breach list ships
 * with the program, so the check works on an offline machine.
 */
export async function passwordProblem(password: string, identifier: string | undefined): Promise<string | undefined> {
  if (password.length < PASSWORD_MIN_LENGTH) return `the password must be at least ${PASSWORD_MIN_LENGTH} characters long, but got ${password.length}`;
  if (password.length > PASSWORD_MAX_LENGTH) return `the password must be at most ${PASSWORD_MAX_LENGTH} characters long`;
  const lower = password.toLowerCase();
  if (new Set(lower).size <= 2) return 'the password repeats one or two characters; choose one that is harder to guess';
  if ((await commonPasswords()).has(lower)) return 'the password is one of the most common passwords found in data breaches and must not be used';
  if (identifier) {
    const id = identifier.toLowerCase();
    const local = id.split('@')[0] ?? id;
    if (lower === id || (local.length >= 4 && lower.includes(local)) || (lower.length >= 4 && id.includes(lower))) {
      return 'the password is too similar to the email address';
    }
  }
  return undefined;
}
