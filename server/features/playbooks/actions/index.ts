import { exec } from './exec';
import { gitops } from './gitops';
import { http } from './http';
import { notification } from './notification';
import { sql } from './sql';
import type { ActionExecutors } from './types';

/**
 * The executors by action type: one module per type. spec.ts RUN_TYPES says which types a playbook may
 * expect to run (a type listed here and not there still runs when the run reaches it).
 */
export const actionExecutors: ActionExecutors = { exec, http, sql, notification, gitops };
