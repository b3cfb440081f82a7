import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api, ApiError, errorBodyMessage } from '@web/lib/api';
import { toast } from '@web/lib/toast';
import { createdTokenSchema, tokenSchema, type CreatedToken } from './schema';
import type { CreateTokenPayload } from './token-form';

export const tokenKeys = {
  all: ['tokens'] as const,
  list: () => ['tokens', 'list'] as const,
};

/** The signed-in person's tokens (an admin's answer holds everyone's). */
export function useTokens() {
  return useQuery({
    queryKey: tokenKeys.list(),
    queryFn: ({ signal }) => api.get('/api/auth/tokens', (data) => z.array(tokenSchema).parse(data), { signal }),
  });
}

/** Spec §8: a failed creation toasts the error message, else 'Failed to create token'. */
export const CREATE_FAILED = 'Failed to create token';

/**
 * The toast of a failed creation (spec §8): the server's error message; an answer that carries none (an
 * empty 500) reads 'Failed to create token', not the status line. Network failures keep their own texts.
 */
export function createFailure(error: unknown): Error | string {
  if (error instanceof ApiError && error.kind === 'http' && errorBodyMessage(error.data) === undefined) return CREATE_FAILED;
  return error instanceof Error && error.message.trim() !== '' ? error : CREATE_FAILED;
}

export function useCreateToken() {
  const client = useQueryClient();
  return useMutation({
    meta: { toast: false },
    mutationFn: (payload: CreateTokenPayload): Promise<CreatedToken> =>
      api.post('/api/auth/create_token', payload, (data) => createdTokenSchema.parse(data).payload),
    onSuccess: () => {
      toast.success('Token created successfully');
      return client.invalidateQueries({ queryKey: tokenKeys.all });
    },
    onError: (error) => toast.error(createFailure(error)),
  });
}

export function useDeleteToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (token: { id: string; name: string }) => api.delete(`/api/auth/token/${encodeURIComponent(token.id)}`, () => undefined),
    onSuccess: (_data, token) => {
      toast.success(`${token.name} deleted successfully`);
      return client.invalidateQueries({ queryKey: tokenKeys.all });
    },
  });
}
