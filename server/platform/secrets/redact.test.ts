import { describe, expect, it } from 'vitest';
import { connectionSecretValues } from './collect';
import { MIN_REDACTED_LENGTH, REDACTED, redactDeep, redactText, SecretValues } from './redact';

describe('secret redaction', () => {
  it('replaces a value and its URL-encoded, JSON, shell-quoted and base64 forms', () => {
    const secret = "p@ss w'rd\"$x";
    const values = new SecretValues([secret]);
    const base64 = Buffer.from(secret).toString('base64');
    expect(values.redact(`a ${secret} b`)).toBe(`a ${REDACTED} b`);
    expect(values.redact(`url ${encodeURIComponent(secret)}`)).toBe(`url ${REDACTED}`);
    expect(values.redact(`json ${JSON.stringify(secret)}`)).toBe(`json "${REDACTED}"`);
    expect(values.redact(`sh '${secret.replaceAll("'", "'\\''")}'`)).toBe(`sh '${REDACTED}'`);
    expect(values.redact(`b64 ${base64}`)).toBe(`b64 ${REDACTED}`);
  });

  it('replaces the longest value first, and each line of a multi-line value', () => {
    const values = new SecretValues(['abcd', 'abcdefgh', '-----BEGIN KEY-----\nMIIBOgIBAAJBAK\n-----END KEY-----']);
    expect(values.redact('x abcdefgh y abcd')).toBe(`x ${REDACTED} y ${REDACTED}`);
    expect(values.redact('line MIIBOgIBAAJBAK')).toBe(`line ${REDACTED}`);
  });

  it(`replaces a value shorter than ${MIN_REDACTED_LENGTH} characters only where it is the whole text`, () => {
    expect(redactText('a', ['a'])).toBe(REDACTED);
    expect(redactText('a cat', ['a'])).toBe('a cat');
    expect(redactText('abc abcd', ['abc', 'abcd'])).toBe(`abc ${REDACTED}`);
  });

  it('redacts every text of a value, keys included, and keeps other values', () => {
    const when = new Date(0);
    expect(redactDeep({ stdout: 'tok3n!', n: 1, when, list: ['x tok3n!'], ['tok3n!']: true }, ['tok3n!'])).toEqual({ stdout: REDACTED, n: 1, when, list: [`x ${REDACTED}`], [REDACTED]: true });
  });

  it('takes the credentials of a connection, not its user name, host or plain properties', () => {
    const found = connectionSecretValues({
      id: 'c', name: 'db', namespace: 'default', type: 'postgres', url: 'postgres://ann:url%40pass@db.example:5432/app', username: 'ann', password: 'pw-1234',
      certificate: '', insecureTLS: false, properties: { bearer: 'bearer-token', region: 'eu-west-1' },
    });
    expect(found).toEqual(expect.arrayContaining(['pw-1234', 'url%40pass', 'url@pass', 'ann:pw-1234', 'bearer-token']));
    expect(found).not.toContain('ann');
    expect(found).not.toContain('eu-west-1');
    expect(found.some((value) => value.includes('db.example'))).toBe(false);
  });
});
