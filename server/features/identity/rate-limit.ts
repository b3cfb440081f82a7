import type pg from 'pg';

/** Sign-in failures allowed per identifier and per client address in one window (docs/AUTH.md). */
export const LIMITS = {
  loginIdentifier: { max: 10, windowSeconds: 15 * 60 },
  loginAddress: { max: 50, windowSeconds: 15 * 60 },
  codeSendAddress: { max: 10, windowSeconds: 60 * 60 },
  codeSendEmail: { max: 5, windowSeconds: 60 * 60 },
  registrationAddress: { max: 20, windowSeconds: 60 * 60 },
} as const;
export type LimitName = keyof typeof LIMITS;

export interface LimitState {
  limited: boolean;
  /** Seconds until the window ends. */
  retryAfter: number;
}

/**
 * Fixed-window counters in `auth_rate_limits`, shared by every instance. `check` reads without counting
 * (sign-in counts only failures); `hit` counts one and says whether the limit is now passed.
 */
export class RateLimiter {
  constructor(private readonly pool: pg.Pool) {}

  async check(name: LimitName, subject: string): Promise<LimitState> {
    const limit = LIMITS[name];
    const { rows } = await this.pool.query<{ hits: number; left: number }>(
      `SELECT hits, extract(epoch FROM window_start + make_interval(secs => $2) - now())::int AS left
         FROM auth_rate_limits WHERE key = $1 AND window_start > now() - make_interval(secs => $2)`,
      [`${name}:${subject}`, limit.windowSeconds],
    );
    const row = rows[0];
    return row && row.hits >= limit.max ? { limited: true, retryAfter: Math.max(1, row.left) } : { limited: false, retryAfter: 0 };
  }

  async hit(name: LimitName, subject: string): Promise<LimitState> {
    const limit = LIMITS[name];
    const { rows } = await this.pool.query<{ hits: number; left: number }>(
      `INSERT INTO auth_rate_limits AS r (key, window_start, hits) VALUES ($1, now(), 1)
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN r.window_start <= now() - make_interval(secs => $2) THEN 1 ELSE r.hits + 1 END,
         window_start = CASE WHEN r.window_start <= now() - make_interval(secs => $2) THEN now() ELSE r.window_start END
       RETURNING hits, extract(epoch FROM window_start + make_interval(secs => $2) - now())::int AS left`,
      [`${name}:${subject}`, limit.windowSeconds],
    );
    const row = rows[0];
    return row && row.hits > limit.max ? { limited: true, retryAfter: Math.max(1, row.left) } : { limited: false, retryAfter: 0 };
  }

  async reset(name: LimitName, subject: string): Promise<void> {
    await this.pool.query('DELETE FROM auth_rate_limits WHERE key = $1', [`${name}:${subject}`]);
  }
}
