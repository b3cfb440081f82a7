import { z } from 'zod';
import { isRecord } from './errors';

/**
 * Walking a zod schema beside a parsed document, to name the fields the schema does not know before the
 * document is parsed (playbook, view and application specs report `spec.actions[0].exec.foo` and the like).
 */

/** The schema under optional/nullable/default/pipe wrappers, the one that holds a shape. */
export function innerSchema(schema: z.core.$ZodType): z.core.$ZodType {
  let current = schema;
  for (let guard = 0; guard < 10; guard += 1) {
    if (current instanceof z.ZodOptional || current instanceof z.ZodNullable || current instanceof z.ZodDefault) current = current.unwrap();
    else if (current instanceof z.ZodPipe) current = current.in;
    else break;
  }
  return current;
}

export interface UnknownFieldsOptions {
  /** Walk the values of z.record (a map's entries are checked against its value schema). */
  records?: boolean;
  /** Walk a union by its first object option. */
  unions?: boolean;
}

/** The paths of fields in `value` the schema does not name (`spec.columns[0].foo`), objects and lists walked. */
export function unknownFields(schema: z.core.$ZodType, value: unknown, path: string, options: UnknownFieldsOptions = {}): string[] {
  const shaped = innerSchema(schema);
  if (shaped instanceof z.ZodObject && isRecord(value)) {
    const shape: Record<string, z.core.$ZodType | undefined> = shaped.shape;
    const out: string[] = [];
    for (const [key, item] of Object.entries(value)) {
      const field = shape[key];
      if (!field) out.push(`${path}.${key}`);
      else out.push(...unknownFields(field, item, `${path}.${key}`, options));
    }
    return out;
  }
  if (options.records && shaped instanceof z.ZodRecord && isRecord(value)) {
    const element = shaped.valueType;
    return Object.entries(value).flatMap(([key, item]) => unknownFields(element, item, `${path}.${key}`, options));
  }
  if (shaped instanceof z.ZodArray && Array.isArray(value)) {
    const element = shaped.element;
    return value.flatMap((item, index) => unknownFields(element, item, `${path}[${index}]`, options));
  }
  if (options.unions && shaped instanceof z.ZodUnion && isRecord(value)) {
    const object = shaped.options.map(innerSchema).find((option) => option instanceof z.ZodObject);
    return object ? unknownFields(object, value, path, options) : [];
  }
  return [];
}
