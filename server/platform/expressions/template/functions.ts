import { builtins } from './builtins';
import { collFunctions } from './funcs/coll';
import { dataFunctions } from './funcs/data';
import { k8sFunctions } from './funcs/k8s';
import { miscFunctions } from './funcs/misc';
import { notificationFunctions, playbookRunFunctions } from './funcs/mission-control';
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

/**
 * Functions a context adds to gomplate's (Go's Template.Funcs): Mission Control's notification helpers in
 * notification messages, those and the run's getAction / getLastAction in playbook actions. A name of the
 * set hides gomplate's and the builtins'. `name` tells compiled templates of different sets apart.
 */
export interface FunctionSet {
  readonly name: string;
  readonly functions: Readonly<Record<string, GoFunc>>;
}

/** Notification titles and bodies (Mission Control's notification TemplateFuncs). */
export const NOTIFICATION_FUNCTIONS: FunctionSet = { name: 'notification', functions: notificationFunctions };

/** Playbook action fields: the notification helpers and the run's getAction / getLastAction (as Mission Control merges them). */
export const PLAYBOOK_FUNCTIONS: FunctionSet = { name: 'playbook', functions: { ...notificationFunctions, ...playbookRunFunctions } };

/** The lookup of a template compiled with `set` (or gomplate's and Go's names alone). */
export function functionLookup(set: FunctionSet | undefined): (name: string) => { func: GoFunc; builtin: boolean } | undefined {
  if (!set) return lookupFunction;
  return (name) => {
    const own = Object.hasOwn(set.functions, name) ? set.functions[name] : undefined;
    return own ? { func: own, builtin: false } : lookupFunction(name);
  };
}

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
