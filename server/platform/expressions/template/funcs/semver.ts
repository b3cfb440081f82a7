import { compareVersions, parseVersion, semverMap, semverSatisfies, type Version } from '../../shared/semver';
import { func } from '../define';
import { FuncError, type GoFunc, GoStruct } from '../kinds';

/**
 * gomplate's semver functions (funcs/strings.go): `semver` and `strings.Semver` give a Masterminds
 * `*semver.Version` (methods Major, Minor, Patch, Prerelease, Metadata, Original, String, Compare,
 * LessThan, GreaterThan, Equal; it prints as its String()), `strings.SemverMap` a map of texts, and
 * `semverCompare` / `strings.SemverCompare` test a constraint. Parsing and constraints are shared with
 * CEL (shared/semver.ts).
 */
const versions = new WeakMap<GoStruct, Version>();

function other(value: unknown): Version {
  const version = value instanceof GoStruct ? versions.get(value) : undefined;
  if (!version) throw new FuncError('expected a *semver.Version');
  return version;
}

function versionStruct(version: Version): GoStruct {
  const text = `${version.major}.${version.minor}.${version.patch}${version.prerelease ? `-${version.prerelease}` : ''}${version.metadata ? `+${version.metadata}` : ''}`;
  const struct = new GoStruct('*semver.Version', {}, {
    Major: func([], () => BigInt(version.major)),
    Minor: func([], () => BigInt(version.minor)),
    Patch: func([], () => BigInt(version.patch)),
    Prerelease: func([], () => version.prerelease),
    Metadata: func([], () => version.metadata),
    Original: func([], () => version.original),
    String: func([], () => text),
    Compare: func(['any'], (o) => BigInt(Math.sign(compareVersions(version, other(o))))),
    LessThan: func(['any'], (o) => compareVersions(version, other(o)) < 0),
    GreaterThan: func(['any'], (o) => compareVersions(version, other(o)) > 0),
    Equal: func(['any'], (o) => compareVersions(version, other(o)) === 0),
  });
  versions.set(struct, version);
  return struct;
}

export const semverFunc = func(['string'], (text) => versionStruct(parseVersion(text, 'semver')));
export const semverMapFunc = func(['string'], (text) => semverMap(text, 'SemverMap'));
export const semverCompareFunc = func(['string', 'string'], (constraint, version) => semverSatisfies(constraint, version, 'semverCompare'));

/** The semver methods of gomplate's strings namespace. */
export const semverMethods: Record<string, GoFunc> = {
  Semver: semverFunc,
  SemverMap: semverMapFunc,
  SemverCompare: semverCompareFunc,
};
