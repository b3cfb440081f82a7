// Regenerates cel-skips.ts from the actual failures of the product's CEL (run: npx tsx test/conformance/generate-skips.ts).
// Each failure goes to the first group whose rule matches; a failure no rule matches is printed and nothing is
// written: give it a group with a true reason first. Re-read the reasons after regenerating — a group whose
// cause changed (say the product now registers some math functions) needs its reason changed too.
import fs from 'node:fs';
import path from 'node:path';
import { conformanceCases, runConformance } from './cel-conformance';
import { productAdapter } from './product';

interface Failure {
  id: string;
  why: string;
  expr: string;
  proto: boolean;
}

const GROUPS: Array<[string, string, (x: Failure) => boolean]> = [
  ['protobuf', 'Protobuf messages, enums and wrapper types: the product has no protobuf types, and cel-js can neither build messages (TestAllTypes{…}, google.protobuf.Int32Value{…}, Any, Struct) nor resolve enums and containers.', (x) => x.proto],
  // Implemented by the product (cel/syntax.ts, cel/rewrite.ts, cel/comprehensions.ts, cel/standard.ts): no case is skipped.
  ['block_ext', 'cel.block / cel.index / cel.iterVar are registered by the product (cel/comprehensions.ts); no case is skipped.', (x) => x.id.startsWith('block_ext/')],
  ['optionals', 'Optional values, optional list and map entries included, are implemented by the product (cel/optional.ts, cel/syntax.ts, cel/rewrite.ts); no case is skipped.', (x) => x.id.startsWith('optionals/')],
  ['math_ext', 'The math extension is registered by the product (bit operations keep int and uint apart, ceil/floor/round/trunc take only doubles, as in cel-go); no case is skipped.', (x) => x.id.startsWith('math_ext/')],
  ['encoders_ext', 'The encoders extension (base64.encode/decode) is registered by the product; no case is skipped.', (x) => x.id.startsWith('encoders_ext/')],
  ['string_ext', "The strings extension is registered by the product with cel-go's semantics (format() as cel-go's formatter prints values, ASCII-only lowerAscii()/upperAscii(), Go's whitespace set for trim()); no case is skipped.", (x) => x.id.startsWith('string_ext/')],
  ['map_int_keys', "A map literal evaluates, in cel-js, to a JS object whose keys are strings, so a comprehension over a map with int keys sees string keys (`{6: 'six'}.exists_one(k, k % 5 == 2)` fails: k is '6').", (x) => /exists_?[oO]ne\/map_one/.test(x.id)],
  ['bytes', "string(bytes) turns invalid UTF-8 into U+FFFD instead of failing: cel-js's own overload, which cannot be replaced.", (x) => /bytes/.test(x.id)],
  ['compile_time_errors', "What CEL leaves to run time is refused when the product compiles: a call to an unknown function or method (`f_unknown(17) || true`, `a.as() || true` must be true in CEL; the product refuses unknown function names at compile time by design, naming them), `&&` / `||` with a non-bool operand (`false && 32`) and `?:` with branches of different types (`true ? 'cows' : 17`), which cel-js's checker rejects.", (x) => /unbound_is_runtime_error|receiver_function_names|logic\//.test(x.id)],
  ['mixed_numbers', "Numbers across types: cel-js's checker rejects ==, != between int, uint and double (1.0 == 1, 2u != 2, [1] == [1.0], ['one'] == [2, 3]), `in` finds no uint in a list of ints (dyn(3u) in [3]) nor a uint index in a list, and it compares int and double by converting the int to a double near 2^63.", (x) => /mixed_type|mixed_types|_dyn_|lists\/in\/|zero_based_uint|not_eq_list_length/.test(x.id)],
  ['timestamps', "Timestamps and durations: cel-js keeps timestamps as JS Dates (millisecond precision, no range check to years 1–9999), has no duration range check (±10000 years), no numeric time-zone offsets ('+11:00'), and declares duration + timestamp as giving a duration.", (x) => x.id.startsWith('timestamps/')],
  ['qualified_names', 'Variables with dotted names (a binding named `a.b.c` or `x.y`): cel-js resolves only simple names; the product binds none.', (x) => /qualified_identifier_resolution|namespace\/qualified/.test(x.id)],
  ['null_type', "type(null) is named `null` in cel-js, not `null_type`.", (x) => /null_type/.test(x.id)],
];

const cases = new Map(conformanceCases().map((item) => [item.id, item]));
const failures: Failure[] = [...runConformance(productAdapter()).failures].map(([id, why]) => ({ id, why, expr: cases.get(id)!.expr, proto: cases.get(id)!.usesProtobuf }));
const out = GROUPS.map(([name, reason]) => ({ name, reason, cases: [] as string[] }));
const other: Failure[] = [];
for (const failure of failures) {
  const index = GROUPS.findIndex(([, , test]) => test(failure));
  if (index < 0) other.push(failure);
  else out[index]!.cases.push(failure.id);
}
if (other.length > 0) {
  for (const failure of other) process.stderr.write(`no group: ${failure.id} | ${failure.expr} | ${failure.why}\n`);
  process.exit(1);
}
const quote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
let text = `// Conformance cases the product's CEL (@marcbachmann/cel-js through evaluateCel) knowingly fails, grouped by
// cause. cel-conformance.test.ts fails when a case outside this list fails AND when a listed case starts
// passing, so the list stays true. Generated by generate-skips.ts from the actual failures; every id is
// file/section/name of cel-spec's simple tests as shipped in @bufbuild/cel-spec.

export interface SkipGroup {
  /** Why these cases fail, true for every case in the group. */
  reason: string;
  cases: readonly string[];
}

export const CEL_SKIPS: Record<string, SkipGroup> = {
`;
for (const group of out) {
  if (group.cases.length === 0) continue;
  text += `  ${group.name}: {\n    reason:\n      ${quote(group.reason)},\n    cases: [\n${group.cases.map((id) => `      ${quote(id)},`).join('\n')}\n    ],\n  },\n`;
}
text += `};

/** Every skipped case id → its group. */
export function skippedCases(): Map<string, string> {
  const out = new Map<string, string>();
  for (const [group, { cases }] of Object.entries(CEL_SKIPS)) for (const id of cases) out.set(id, group);
  return out;
}
`;
fs.writeFileSync(path.join(import.meta.dirname, 'cel-skips.ts'), text);
for (const group of out) if (group.cases.length > 0) process.stdout.write(`${group.name}: ${group.cases.length}\n`);
