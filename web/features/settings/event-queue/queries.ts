import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { db } from '@web/lib/db';

/** Counts are bigint and averages numeric in PostgreSQL, which JSON may carry as strings. */
const count = z.coerce.number();
export const eventQueueSummarySchema = z.object({
  name: z.string(),
  /** The consumer the deliveries are for; '' while no consumer subscribes to the event. */
  consumer: z.string().default(''),
  pending: count,
  retrying: count,
  failed: count,
  average_attempts: z.coerce.number().nullable(),
  first_failure: z.string().nullable(),
  last_failure: z.string().nullable(),
  most_common_error: z.string().nullable(),
  oldest: z.string().nullable(),
});
export type EventQueueSummary = z.infer<typeof eventQueueSummarySchema>;

export const eventQueueKeys = {
  all: ['event_queue_summary'] as const,
  summary: () => ['event_queue_summary', 'list'] as const,
};

export function useEventQueueSummary() {
  return useQuery({
    queryKey: eventQueueKeys.summary(),
    queryFn: async () => {
      const { data, error } = await db.from('event_queue_summary').select('*').order('name').order('consumer');
      if (error) throw new Error(error.message, { cause: error });
      return z.array(eventQueueSummarySchema).parse(data ?? []);
    },
  });
}
