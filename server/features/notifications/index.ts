import { EVENT_NAMES, PLAYBOOK_EVENT_NAMES } from '../../../common/events';
import type { AppContext, Feature } from '../../platform/context';
import { errorMessage } from '../../platform/jobs/db';
import { Listener } from '../../platform/jobs/listener';
import { backgroundWork } from '../../platform/jobs/registry';
import { boundedWait, Waker } from '../../platform/jobs/waker';
import type { Logger } from '../../platform/logger';
import { NotificationEngine } from './engine';
import { notificationRoutes } from './routes';
import { notificationKind } from './rules';
import { notificationSilenceKind } from './silences';
import { notificationKubeKind, notificationSilenceKubeKind } from './kube-kinds';

export { NotificationEngine } from './engine';
export { loadEventResource } from './resource';
export { renderMessage } from './templates';

export const NOTIFICATIONS_CHANNEL = 'watchkeeper_notifications';
export const RULES_CHANNEL = 'watchkeeper_notification_rules';
/** The send history is kept this long (property notification.history.retention_days overrides). */
const RETENTION_DAYS = 30;

const engines = new WeakMap<object, NotificationEngine>();

/** The engine of an app (one per pool): the consumer, the sender and the routes share its caches. */
export function engineOf(ctx: Pick<AppContext, 'pool' | 'log' | 'config'>): NotificationEngine {
  let engine = engines.get(ctx.pool);
  if (!engine) {
    engine = new NotificationEngine(ctx.pool, ctx.log.child({ component: 'notifications' }), { publicUrl: ctx.config.publicUrl, smtpUrl: ctx.config.smtpUrl, smtpFrom: ctx.config.smtpFrom });
    engines.set(ctx.pool, engine);
  }
  return engine;
}

/**
 * Delivers due send-history rows: woken by NOTIFY when a row is recorded, else at the next due time
 * (at most every 2 s). Every instance runs one; a row is claimed by one of them.
 */
export class NotificationSender {
  private readonly waker = new Waker();
  private readonly controller = new AbortController();
  private stopped = false;
  private loop: Promise<void> | undefined;
  private listener: Listener | undefined;

  constructor(
    private readonly engine: NotificationEngine,
    private readonly pool: AppContext['pool'],
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    this.listener = new Listener(this.pool, this.log);
    this.listener.on(NOTIFICATIONS_CHANNEL, () => this.waker.wake());
    this.listener.on(RULES_CHANNEL, () => this.engine.invalidate());
    await this.listener.start();
    this.loop = this.run();
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      let wait = 2_000;
      try {
        const done = await this.engine.sendDue(20, this.controller.signal);
        if (done > 0) continue;
        wait = boundedWait(await this.engine.millisUntilDue(), 20, 2_000);
      } catch (error) {
        this.log.warn({ err: errorMessage(error) }, 'notification sender round failed; retrying');
      }
      if (this.stopped) break;
      await this.waker.wait(wait);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.controller.abort();
    this.waker.wake();
    await this.loop?.catch(() => undefined);
    await this.listener?.stop();
  }
}

/**
 * Notifications (spec §2 /notifications, §3 Notification and Silence, §4 Silences, §6, §7): the kinds
 * `Notification` and `NotificationSilence`, the `notifications` event consumer that records what each
 * event means for each rule, and the sender that delivers it through the channels (docs/NOTIFICATIONS.md).
 */
export const notificationsFeature: Feature = {
  name: 'notifications',
  kinds: [notificationKind, notificationSilenceKind],
  kubeKinds: [notificationKubeKind, notificationSilenceKubeKind],
  register(app, ctx) {
    const engine = engineOf(ctx);
    notificationRoutes(app, ctx, () => engine.invalidate());
    backgroundWork.consumer({
      name: 'notifications',
      events: [...EVENT_NAMES, ...PLAYBOOK_EVENT_NAMES],
      batchSize: 50,
      maxAttempts: 5,
      handler: async (event) => {
        await engineOf(ctx).handleEvent(event);
      },
    });
    backgroundWork.job({
      name: 'Notification history retention',
      schedule: '@daily',
      description: `Deletes notification send history older than ${RETENTION_DAYS} days, in batches`,
      async run(run) {
        let deleted = 0;
        for (;;) {
          const { rowCount } = await ctx.pool.query(
            `DELETE FROM notification_send_history WHERE id IN (
               SELECT id FROM notification_send_history WHERE created_at < now() - make_interval(days => $1) AND status NOT IN ('pending', 'evaluating-waitfor', 'attempting_fallback') LIMIT 5000)`,
            [RETENTION_DAYS],
          );
          deleted += rowCount ?? 0;
          if (!rowCount) break;
        }
        run.success(deleted);
      },
    });
  },
  async start(ctx) {
    const sender = new NotificationSender(engineOf(ctx), ctx.pool, ctx.log.child({ component: 'notifications' }));
    await sender.start();
    return () => sender.stop();
  },
};
