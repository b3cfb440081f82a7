import { specRowKind, type SpecRowTable } from '../../platform/spec-rows';
import { checkApplicationSpec } from './spec';

/** kind: Application (mission-control.flanksource.com/v1): the spec as written, its type and description beside it. */
export const applicationTable: SpecRowTable = {
  table: 'applications',
  noun: 'application',
  problems: (spec) => checkApplicationSpec(spec).problems,
  warnings: (spec) => checkApplicationSpec(spec).checked?.warnings ?? [],
  columns(spec) {
    const checked = checkApplicationSpec(spec).checked?.spec;
    return { type: checked?.type ?? '', description: checked?.description ?? null, error: null };
  },
};

export const applicationKind = specRowKind(applicationTable, { kind: 'Application', apiVersions: ['mission-control.flanksource.com/v1'] });
