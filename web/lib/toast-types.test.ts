import { afterEach, describe, expect, it, vi } from 'vitest';

const sonner = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), loading: vi.fn(), dismiss: vi.fn() }));
vi.mock('sonner', () => ({ toast: sonner }));

const { toast } = await import('./toast');
const { createQueryClient } = await import('./query-client');

describe('toasts (spec §8, §9)', () => {
  afterEach(() => vi.clearAllMocks());

  it('has success, error and loading types; loading has no close button', () => {
    toast.success('Saved');
    toast.error({ response: { data: { message: 'Nope' } } });
    toast.loading('Working');
    expect(sonner.success).toHaveBeenCalledWith('Saved', { duration: 5000 });
    expect(sonner.error).toHaveBeenCalledWith('Nope', { duration: 5000 });
    expect(sonner.loading).toHaveBeenCalledWith('Working', expect.objectContaining({ closeButton: false }));
  });

  it('toasts failed mutations unless they opt out', async () => {
    const client = createQueryClient();
    const fail = async () => {
      throw new Error('Save failed');
    };
    await client.getMutationCache().build(client, { mutationFn: fail }).execute(undefined).catch(() => undefined);
    expect(sonner.error).toHaveBeenCalledWith('Save failed', { duration: 5000 });
    sonner.error.mockClear();
    await client.getMutationCache().build(client, { mutationFn: fail, meta: { toast: false } }).execute(undefined).catch(() => undefined);
    expect(sonner.error).not.toHaveBeenCalled();
  });
});
