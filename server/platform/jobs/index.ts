// Background work: the API other features use. See docs/ARCHITECTURE.md, "Background work".
export { backgroundWork, BackgroundWork, type EventConsumer, type ScheduledRows, type SystemJob } from './registry';
export { publish, type PublishOptions, type QueuedEvent, type Backoff, DEFAULT_BACKOFF, DEFAULT_MAX_ATTEMPTS } from './event-queue';
export type { EventContext, EventHandler, ConsumerOptions } from './consumer';
export { JobSkipped, type JobRun, type RunOptions, type RunOutcome } from './job-run';
export { defineScheduledTable, resourceScheduledTable, type ScheduledTable, type ScheduledTableColumns } from './scheduled-table';
export type { ClaimedRow } from './row-claims';
export { parseSchedule, firstRunAt, parseDuration, stableFraction, ScheduleError, type Schedule } from './schedule';
export { TimerQueue } from './timer-queue';
export { LOCAL_AGENT_ID, JOB_STATUSES, type JobStatus, type JobResource } from './history';
export { startBackgroundWork, type BackgroundRuntime, type RuntimeOptions } from './runtime';
export { platformJobsFeature } from './feature';
