import { builtins } from './builtins';
import { collFunctions } from './funcs/coll';
import { dataFunctions } from './funcs/data';
import { k8sFunctions } from './funcs/k8s';
import { miscFunctions } from './funcs/misc';
import { queryFunctions } from './funcs/query';
import { stringFunctions } from './funcs/strings';
import { timeFunctions } from './funcs/time';
import type { GoFunc } from './kinds';

/**
 * The function table of a template, as flanksource/gomplate's CreateFuncs builds it (funcs.go): the
 * namespaces (`strings`, `conv`, `coll`, `data`, `time`, `math`, `test`, `regexp`, `base64`, `crypto`,
 * `uuid`, `filepath`, `path`, `k8s`) and gomplate's top-level names (`toUpper`, `toJSON`, `default`, `has`,
 * `dict`, `required`, `jq`, `jsonpath`, `matchLabel`, `semver`, `isHealthy`…). Only gomplate's names are here: a template that fails on canary-checker
 * (`{{ .x | upper }}`, a Sprig name) fails here too, with Go's `function "upper" not defined`.
 *
 * Go looks a name up among the template's functions before its builtins, so gomplate's `slice`
 * (coll.Slice, a list of its arguments) hides Go's builtin `slice`.
 */
const gomplate: Record<string, GoFunc> = {
  ...dataFunctions,
  ...stringFunctions,
  ...collFunctions,
  ...timeFunctions,
  ...miscFunctions,
  ...queryFunctions,
  ...k8sFunctions,
};

export function lookupFunction(name: string): { func: GoFunc; builtin: boolean } | undefined {
  if (Object.hasOwn(gomplate, name)) {
    const func = gomplate[name];
    if (func) return { func, builtin: false };
  }
  if (Object.hasOwn(builtins, name)) {
    const func = builtins[name];
    if (func) return { func, builtin: true };
  }
  return undefined;
}

/** Every name a template can call, for documentation and editor completion. */
export function functionNames(): { builtins: string[]; gomplate: string[] } {
  return { builtins: Object.keys(builtins).sort(), gomplate: Object.keys(gomplate).sort() };
}
