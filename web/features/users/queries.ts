import type { PostgrestClient } from '@supabase/postgrest-js';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { Role } from '@common/rbac';
import { api } from '@web/lib/api';
import { db } from '@web/lib/db';
import { toast } from '@web/lib/toast';
import type { UsersFilters } from './filters';
import { inviteResultSchema, PERSON_COLUMNS, personRowSchema, successSchema, type InviteForm, type PersonRow, type PersonState } from './schema';
import { ilikeAny } from '@web/lib/search';

export const userKeys = {
  all: ['people_roles'] as const,
  list: (query: UsersQuery) => ['people_roles', 'list', query] as const,
};

export interface UsersQuery {
  search: string;
  sortBy: UsersFilters['sortBy'];
  sortOrder: UsersFilters['sortOrder'];
  pageIndex: number;
  pageSize: number;
}

/** One page of people_roles with the exact total (spec §7: count=exact, read from Content-Range). */
export function buildUsersQuery(client: PostgrestClient, query: UsersQuery) {
  let request = client.from('people_roles').select(PERSON_COLUMNS, { count: 'exact' });
  const search = query.search.trim();
  if (search !== '') request = request.or(ilikeAny(['name', 'email'], search));
  const first = query.pageIndex * query.pageSize;
  // The id breaks ties, so a page boundary never shows a person twice or skips one.
  return request
    .order(query.sortBy, { ascending: query.sortOrder === 'asc', nullsFirst: false })
    .order('id')
    .range(first, first + query.pageSize - 1);
}

export function useUsers(query: UsersQuery) {
  return useQuery({
    queryKey: userKeys.list(query),
    queryFn: async ({ signal }) => {
      const { data, error, count } = await buildUsersQuery(db, query).abortSignal(signal);
      if (error) throw new Error(error.message, { cause: error });
      const rows = z.array(personRowSchema).parse(data ?? []);
      return { rows, total: count ?? rows.length };
    },
    placeholderData: keepPreviousData,
  });
}

function useInvalidateUsers() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: userKeys.all });
}

/** Spec §7: POST /auth/invite_user. The dialog shows the answer; a taken email is the server's 409. */
export function useInviteUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (form: InviteForm) => api.post('/api/auth/invite_user', form, inviteResultSchema.parse),
    // The dialog shows a taken email on the field and toasts other failures itself.
    meta: { toast: false },
    onSuccess: () => invalidate(),
  });
}

export interface PersonChange {
  person: PersonRow;
  roles?: Role[];
  state?: PersonState;
}

/** Spec §7: POST /people/update; spec §8: 'User updated successfully'. */
export function useUpdatePerson() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: ({ person, roles, state }: PersonChange) =>
      api.post('/api/people/update', { id: person.id, ...(roles ? { roles } : {}), ...(state ? { state } : {}) }, successSchema.parse),
    onSuccess: () => {
      toast.success('User updated successfully');
      return invalidate();
    },
  });
}

/** Spec §7: DELETE /people/{id}; spec §8: '{name} deleted successfully'. */
export function useDeletePerson() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (person: PersonRow) => api.delete(`/api/people/${encodeURIComponent(person.id)}`, successSchema.parse),
    onSuccess: (_data, person) => {
      toast.success(`${person.name || person.email || 'User'} deleted successfully`);
      return invalidate();
    },
  });
}
