import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { db } from './db';
import { ilikeAny } from './search';

/** A person as pickers and lists show them (the readable columns of /api/db/people). */
export const personSchema = z.object({ id: z.string(), name: z.string(), email: z.string().nullable(), avatar: z.string().nullable() });
export type Person = z.infer<typeof personSchema>;

/** How many people a picker shows for one search. */
export const PEOPLE_SEARCH_LIMIT = 20;

export const peopleKeys = {
  search: (term: string) => ['people', 'search', term] as const,
};

/** A person's name for messages: the name, else the email. */
export function personLabel(person: Person): string {
  return person.name || person.email || person.id;
}

/** People whose name or email contains the term (spec §9: the caller debounces it by 300 ms). */
export function usePeopleSearch(term: string) {
  const trimmed = term.trim();
  return useQuery({
    queryKey: peopleKeys.search(trimmed),
    enabled: trimmed !== '',
    queryFn: async ({ signal }) => {
      const { data, error } = await db
        .from('people')
        .select('id,name,email,avatar')
        .or(ilikeAny(['name', 'email'], trimmed))
        .order('name')
        .limit(PEOPLE_SEARCH_LIMIT)
        .abortSignal(signal);
      if (error) throw new Error(error.message, { cause: error });
      return z.array(personSchema).parse(data ?? []);
    },
  });
}
