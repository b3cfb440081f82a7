import type pg from 'pg';
import { FINAL_STATUSES } from '../runs';

export interface FinishedRun {
  status: string;
  actions: Array<{ name: string; status: string; result: Record<string, unknown>; error: string | null }>;
}

/** Waits (polling every 50 ms, at most `millis`) until a playbook run has a final status; answers it with its actions in order. */
export async function finishedRun(pool: pg.Pool, id: string, millis = 20_000): Promise<FinishedRun> {
  const final: readonly string[] = FINAL_STATUSES;
  const until = Date.now() + millis;
  for (;;) {
    const { rows } = await pool.query<{ status: string }>('SELECT status FROM playbook_runs WHERE id = $1', [id]);
    const status = rows[0]?.status ?? '';
    if (final.includes(status)) {
      const actions = await pool.query<FinishedRun['actions'][number]>(
        'SELECT name, status, result, error FROM playbook_run_actions WHERE playbook_run_id = $1 ORDER BY action_index, retry_count',
        [id],
      );
      return { status, actions: actions.rows };
    }
    if (Date.now() > until) throw new Error(`run ${id} is ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
