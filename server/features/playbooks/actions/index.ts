import { ai } from './ai';
import { azureDevopsPipeline } from './azure-devops';
import { exec } from './exec';
import { github } from './github';
import { gitops } from './gitops';
import { http } from './http';
import { logs } from './logs';
import { notification } from './notification';
import { prometheus } from './prometheus';
import { sql } from './sql';
import type { ActionExecutors } from './types';

/**
 * The executors by action type: one module per type. spec.ts RUN_TYPES says which types a playbook may
 * expect to run (a type listed here and not there still runs when the run reaches it).
 */
export const actionExecutors: ActionExecutors = { exec, http, sql, notification, gitops, github, azureDevopsPipeline, prometheus, ai, logs };
