import { Kind, kindOf, type ParamType } from './kinds';

/** The parameter types of template functions as Go names them, and which values are of them. */

/** Go's names of the parameter types, for errors (wrong type for value; expected …). */
export const goTypeNames: Record<ParamType, string> = {
  any: 'interface {}',
  value: 'reflect.Value',
  string: 'string',
  int: 'int',
  float: 'float64',
  bool: 'bool',
  map: 'map[string]interface {}',
  list: '[]interface {}',
  time: 'time.Time',
  duration: 'time.Duration',
};

/** Whether a value is of a parameter type as Go would hold it (no conversion). */
export function fitsType(type: ParamType, value: unknown): boolean {
  switch (kindOf(value)) {
    case Kind.String:
      return type === 'string';
    case Kind.Int:
      return type === 'int';
    case Kind.Float:
      return type === 'float';
    case Kind.Bool:
      return type === 'bool';
    case Kind.Map:
      return type === 'map';
    case Kind.Slice:
      return type === 'list';
    case Kind.Time:
      return type === 'time';
    case Kind.Duration:
      return type === 'duration';
    default:
      return false;
  }
}
