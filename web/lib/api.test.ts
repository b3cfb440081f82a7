import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api, NETWORK_ERROR_TEXTS } from './api';

const text = (value: unknown) => (typeof value === 'string' ? value : '');

describe('api client', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('returns the parsed answer', async () => {
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ backend: '1.0.0' }), { status: 200 }));
    await expect(api.get('/api/version', (data) => data)).resolves.toEqual({ backend: '1.0.0' });
  });

  it("turns an error answer into an ApiError with the server's message and body", async () => {
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ error: 'not_found', message: 'no such check' }), { status: 404 }));
    const error = await api.get('/api/x', text).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ message: 'no such check', status: 404, kind: 'http', data: { error: 'not_found' } });
  });

  it('uses the spec §8 network texts', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(api.get('/api/x', text)).rejects.toMatchObject({ message: NETWORK_ERROR_TEXTS.network, kind: 'network' });

    vi.stubGlobal('navigator', { onLine: false });
    await expect(api.get('/api/x', text)).rejects.toMatchObject({ message: 'No internet connection. Please try again.' });
    vi.unstubAllGlobals();

    vi.stubGlobal('fetch', (_input: unknown, init?: RequestInit) => new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason))));
    await expect(api.get('/api/x', text, { timeoutMs: 10 })).rejects.toMatchObject({ message: 'Request timed out. Please try again.', kind: 'timeout' });
  });

  it('rejects an answer of the wrong shape', async () => {
    vi.stubGlobal('fetch', async () => new Response('[]', { status: 200 }));
    const parse = (data: unknown) => {
      if (!Array.isArray(data) || data.length === 0) throw new Error('empty');
      return data;
    };
    await expect(api.get('/api/x', parse)).rejects.toMatchObject({ kind: 'invalid-response' });
  });
});
