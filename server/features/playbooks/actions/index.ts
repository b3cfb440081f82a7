import { exec } from './exec';
import { http } from './http';
import { notification } from './notification';
import { sql } from './sql';
import type { ActionExecutors } from './types';

/** The executors of the action types this console runs (spec.ts RUN_TYPES): one module per type. */
export const actionExecutors: ActionExecutors = { exec, http, sql, notification };
