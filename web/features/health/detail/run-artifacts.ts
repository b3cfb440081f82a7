import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { db } from '@web/lib/db';
import { healthKeys } from '../api/keys';

const artifactSchema = z.object({
  id: z.string(),
  check_time: z.string(),
  filename: z.string(),
  size: z.number(),
  truncated: z.boolean(),
});
export type RunArtifact = z.infer<typeof artifactSchema>;

/** At most 50 results a page with at most 100 artifacts each (the server's per-run limit). */
const MAX_ARTIFACTS = 5000;

/** Where an artifact is downloaded from (GET /api/artifacts/download/{id}). */
export function artifactDownloadUrl(id: string): string {
  return `/api/artifacts/download/${encodeURIComponent(id)}`;
}

/**
 * The artifacts of the results on one History page, by result time (milliseconds since the epoch): one
 * request for the page's time span, under the health keys so Run Now refreshes it with the history.
 */
export function useRunArtifacts(checkId: string, times: readonly string[]) {
  const instants = times.map((time) => Date.parse(time)).filter((time) => !Number.isNaN(time));
  const from = instants.length > 0 ? new Date(Math.min(...instants)).toISOString() : undefined;
  const to = instants.length > 0 ? new Date(Math.max(...instants)).toISOString() : undefined;
  return useQuery({
    queryKey: [...healthKeys.histories(checkId), 'artifacts', from, to],
    enabled: from !== undefined && to !== undefined,
    placeholderData: keepPreviousData,
    queryFn: async ({ signal }): Promise<Map<number, RunArtifact[]>> => {
      const { data, error } = await db
        .from('artifacts')
        .select('id,check_time,filename,size,truncated')
        .eq('check_id', checkId)
        .gte('check_time', from ?? '')
        .lte('check_time', to ?? '')
        .order('check_time')
        .order('created_at')
        .limit(MAX_ARTIFACTS)
        .abortSignal(signal);
      if (error) throw new Error(error.message, { cause: error });
      const byRun = new Map<number, RunArtifact[]>();
      for (const artifact of z.array(artifactSchema).parse(data ?? [])) {
        const key = Date.parse(artifact.check_time);
        byRun.set(key, [...(byRun.get(key) ?? []), artifact]);
      }
      return byRun;
    },
  });
}
