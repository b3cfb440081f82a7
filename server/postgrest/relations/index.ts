import type { FunctionDef, RelationDef } from '../registry';
import { platformRelations } from './platform';

/** Everything /api/db serves. A feature exposes its tables, views and functions by adding one line here. */
export const relations: RelationDef[] = [...platformRelations];

export const functions: FunctionDef[] = [];
