import { clsx, type ClassValue } from 'clsx';

/** Joins class names; later classes are appended, so callers pass overrides last. */
export function cn(...values: ClassValue[]): string {
  return clsx(values);
}
