import type { Queryable } from './db';

export interface IntegerProperty {
  name: string;
  defaultValue: number;
  min: number;
  max: number;
}

/**
 * Reads a whole-number setting from `properties`. A missing row means the default; a bad value also falls
 * back to the default and says why, so the job can report it instead of failing.
 */
export async function readIntegerProperty(db: Queryable, property: IntegerProperty): Promise<{ value: number; problem?: string }> {
  const { rows } = await db.query<{ value: string }>('SELECT value FROM properties WHERE name = $1 AND organization_id IS NOT DISTINCT FROM current_organization()', [property.name]);
  const raw = rows[0]?.value.trim();
  if (raw === undefined || raw === '') return { value: property.defaultValue };
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < property.min || value > property.max) {
    return {
      value: property.defaultValue,
      problem: `property ${property.name}=${JSON.stringify(raw)} is not a whole number from ${property.min} to ${property.max}; using ${property.defaultValue}`,
    };
  }
  return { value };
}
