import { describe, expect, it } from 'vitest';
import { restoreSecrets, SECRET_MASK } from './credentials';

describe('restoreSecrets', () => {
  const stored = {
    url: 'postgres://monitor:s3cret@db:5432/app',
    password: 'plain-1',
    bearer: { value: 'token-2' },
    headers: [{ name: 'Authorization', value: 'Bearer token-3' }],
  };

  it('puts the stored secret back wherever the spec holds the mask, in any of its forms', () => {
    const incoming = {
      url: `postgres://monitor:${SECRET_MASK}@db:5432/app`,
      // The console's forms write secrets as {value: …}.
      password: { value: SECRET_MASK },
      bearer: SECRET_MASK,
      headers: [{ name: 'Authorization', value: SECRET_MASK }],
    };
    expect(restoreSecrets(incoming, stored)).toEqual(stored);
  });

  it('keeps what was typed, and a mask with nothing stored behind it', () => {
    const incoming = { url: 'postgres://monitor:new@db:5432/app', password: { value: 'new-1' }, bearer: SECRET_MASK, token: SECRET_MASK };
    expect(restoreSecrets(incoming, { ...stored, bearer: undefined })).toEqual(incoming);
  });
});
