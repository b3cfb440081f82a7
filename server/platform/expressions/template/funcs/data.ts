import { readToml, writeToml } from '../../shared/toml';
import { anyArgs, func } from '../define';
import { FuncError, type GoFunc, GoStruct, isGoMap } from '../kinds';
import { toString } from './conv';
import { goJSON } from './json';
import { goYAML, parseYAML } from './yaml';

/**
 * gomplate's data namespace (flanksource/gomplate funcs/data.go, data/data.go): json and yaml read
 * with a YAML decoder (so integers are Go ints), toJSON with sorted keys and <, >, & left as they are,
 * toJSONPretty with an indent, toYAML as yaml.v3 writes it, CSV, and TOML (smol-toml: TOML 1.0).
 */
function object(text: string): unknown {
  const value = parseYAML(text);
  if (!isGoMap(value)) throw new FuncError(`Unable to unmarshal object ${text}: cannot unmarshal into map[string]interface {}`);
  return value;
}

function array(text: string): unknown {
  const value = parseYAML(text);
  if (!Array.isArray(value)) throw new FuncError(`Unable to unmarshal array ${text}: cannot unmarshal into []interface {}`);
  return value;
}

/** encoding/csv's reader: quoted fields, doubled quotes, CRLF or LF records. */
function readCSV(text: string, delimiter: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let index = 0;
  const endField = () => {
    record.push(field);
    field = '';
  };
  while (index < text.length) {
    const char = text.charAt(index);
    if (quoted) {
      if (char === '"') {
        if (text[index + 1] === '"') {
          field += '"';
          index += 2;
          continue;
        }
        quoted = false;
      } else field += char;
      index++;
      continue;
    }
    if (char === '"' && field === '') quoted = true;
    else if (char === delimiter) endField();
    else if (char === '\n' || (char === '\r' && text[index + 1] === '\n')) {
      endField();
      if (record.length > 1 || record[0] !== '') records.push(record);
      record = [];
      if (char === '\r') index++;
    } else field += char;
    index++;
  }
  if (quoted) throw new FuncError('extraneous or missing " in quoted-field');
  if (field !== '' || record.length > 0) {
    endField();
    records.push(record);
  }
  const width = records[0]?.length ?? 0;
  records.forEach((row, line) => {
    if (row.length !== width) throw new FuncError(`record on line ${line + 1}: wrong number of fields`);
  });
  return records;
}

/** gomplate's csvParseArgs: [delimiter or header] [header] input. */
function parseCSV(args: unknown[]): { records: string[][]; header: string[] } {
  const texts = args.map(toString);
  let delimiter = ',';
  let header: string[] | undefined;
  let input = texts[0] ?? '';
  if (texts.length === 2) {
    input = texts[1] ?? '';
    const first = texts[0] ?? '';
    if (first.length === 1) delimiter = first;
    else if (first.length === 0) header = [];
    else header = first.split(delimiter);
  } else if (texts.length === 3) {
    delimiter = texts[0] ?? ',';
    header = (texts[1] ?? '').split(delimiter);
    input = texts[2] ?? '';
  }
  let records = readCSV(input, delimiter.charAt(0) || ',');
  if (records.length > 0) {
    if (header === undefined) {
      header = records[0] ?? [];
      records = records.slice(1);
    } else if (header.length === 0) {
      header = (records[0] ?? []).map((_cell, index) => String.fromCharCode(65 + (index % 26)).repeat(Math.floor(index / 26) + 1));
    }
  }
  return { records, header: header ?? [] };
}

function csvField(cell: string, delimiter: string): string {
  if (cell === '' || !(cell.includes(delimiter) || /["\r\n]/.test(cell) || cell.startsWith(' ') || cell.startsWith('\t'))) return cell;
  return `"${cell.replaceAll('"', '""')}"`;
}

const toJSON = func(['any'], (value) => goJSON(value, { escapeHTML: false }));
const toJSONPretty = func(['string', 'any'], (indent, value) => goJSON(value, { escapeHTML: false }, indent));
const toYAML = func(['any'], goYAML);

/** data.TOML / toml: a TOML document (text) as a map. */
const toml = func(['any'], (value) => {
  const text = toString(value);
  try {
    return readToml(text);
  } catch (error) {
    throw new FuncError(`Unable to unmarshal object ${text}: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`);
  }
});

/** data.ToTOML / toTOML: a map as TOML text (tables after plain keys, as Go's encoder orders them). */
const toTOML = func(['any'], (value) => {
  try {
    return writeToml(value);
  } catch (error) {
    throw new FuncError(`Unable to marshal ${toString(value)}: ${error instanceof Error ? error.message : String(error)}`);
  }
});
const json = func(['any'], (value) => object(toString(value)));
const jsonArray = func(['any'], (value) => array(toString(value)));
const yaml = func(['any'], (value) => object(toString(value)));
const yamlArray = func(['any'], (value) => array(toString(value)));
const csv = anyArgs((args) => {
  const { records, header } = parseCSV(args);
  return [header, ...records];
});
const csvByRow = anyArgs((args) => {
  const { records, header } = parseCSV(args);
  return records.map((row) => Object.fromEntries(row.map((cell, index) => [header[index] ?? '', cell])));
});
const csvByColumn = anyArgs((args) => {
  const { records, header } = parseCSV(args);
  const columns: Record<string, string[]> = {};
  for (const row of records) row.forEach((cell, index) => (columns[header[index] ?? ''] ??= []).push(cell));
  return columns;
});
const toCSV = anyArgs((args) => {
  let delimiter = ',';
  let rows = args[0];
  if (args.length === 2) {
    if (typeof args[0] !== 'string') throw new FuncError(`Can't parse ToCSV delimiter (${toString(args[0])}) - must be string`);
    [delimiter, rows] = [args[0], args[1]];
  }
  if (!Array.isArray(rows) || !rows.every(Array.isArray)) throw new FuncError("Can't parse ToCSV input - must be a two-dimensional array (like [][]string or [][]interface{})");
  return rows.map((row) => (Array.isArray(row) ? row.map((cell) => csvField(toString(cell), delimiter)).join(delimiter) : '')).join('\r\n') + '\r\n';
});

export const dataNamespace = new GoStruct('*funcs.DataFuncs', {}, {
  JSON: json,
  JSONArray: jsonArray,
  YAML: yaml,
  YAMLArray: yamlArray,
  CSV: csv,
  CSVByRow: csvByRow,
  CSVByColumn: csvByColumn,
  ToCSV: toCSV,
  ToJSON: toJSON,
  ToJSONPretty: toJSONPretty,
  ToYAML: toYAML,
  TOML: toml,
  ToTOML: toTOML,
});

export const dataFunctions: Record<string, GoFunc> = {
  data: func([], () => dataNamespace),
  json,
  jsonArray,
  yaml,
  yamlArray,
  csv,
  csvByRow,
  csvByColumn,
  toJSON,
  toJSONPretty,
  toYAML,
  toCSV,
  toml,
  toTOML,
};
