import type { ConnectionTypeDef } from '@common/connections';
import { ApiError } from '@web/lib/api';
import { answerProblems, problemsByField, type FormProblems } from './form';

/**
 * The problems a failed save shows at its fields: a 400's details by path, a 409 (the name is taken in
 * the namespace) at Name. Undefined when the failure belongs to no field (it is toasted instead).
 */
export function saveErrorProblems(def: ConnectionTypeDef, error: unknown): FormProblems | undefined {
  if (!(error instanceof ApiError)) return undefined;
  if (error.status === 409) return { name: error.message };
  if (error.status !== 400) return undefined;
  const problems = answerProblems(error.data);
  return problems.length > 0 ? problemsByField(def, problems) : undefined;
}
