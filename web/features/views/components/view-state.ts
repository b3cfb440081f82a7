import { useCallback, useMemo, useState } from 'react';
import { useUrlParams } from '@web/lib/use-url-params';
import type { ViewColumn } from '../api/schema';
import { initialTableState, readTableState, writeTableState, type DefaultSort, type TableState } from '../model/table-state';
import { changeVariable, readVariables, writeVariables, type Selection } from '../model/variables';
import type { ViewVariable } from '../api/schema';

/** The table's state: in the URL on a view's own page, in memory when the view is embedded (a section, a preview). */
export function useTableState(embedded: boolean, columns: readonly ViewColumn[], defaultSort?: DefaultSort): [TableState, (next: TableState) => void] {
  const [params, setParams] = useUrlParams();
  // Null until the user changes it: the view's default order applies.
  const [local, setLocal] = useState<TableState | null>(null);
  const sortColumn = defaultSort?.column;
  const sortDesc = defaultSort?.desc;
  const fromUrl = useMemo(
    () => readTableState(params, columns, sortColumn === undefined ? null : { column: sortColumn, desc: sortDesc === true }),
    [params, columns, sortColumn, sortDesc],
  );
  const setUrl = useCallback((next: TableState) => setParams((current) => writeTableState(current, next)), [setParams]);
  return embedded ? [local ?? initialTableState(defaultSort), setLocal] : [fromUrl, setUrl];
}

/**
 * What useTableState will give once the view's columns are known, for reading the first page of rows
 * with the answer: the URL's state on a view's own page, the initial (empty) one when embedded.
 */
export function useTableStateReader(embedded: boolean): (columns: readonly ViewColumn[], defaultSort: DefaultSort) => TableState {
  const [params] = useUrlParams();
  return useCallback(
    (columns: readonly ViewColumn[], defaultSort: DefaultSort) => (embedded ? initialTableState(defaultSort) : readTableState(params, columns, defaultSort)),
    [embedded, params],
  );
}

/** Variables of a view page held in the URL (`var-<key>`); changing one clears those that depend on it. */
export function useUrlVariables(knownKeys: readonly string[]): [Selection, (next: Selection) => void] {
  const [params, setParams] = useUrlParams();
  const selection = useMemo(() => readVariables(params, knownKeys), [params, knownKeys]);
  const set = useCallback((next: Selection) => setParams((current) => writeVariables(current, next, knownKeys)), [setParams, knownKeys]);
  return [selection, set];
}

/** Variables held by the caller when given, else in memory. */
export function useSelection(variables: Selection | undefined, onChange: ((next: Selection) => void) | undefined): [Selection, (next: Selection) => void] {
  const [local, setLocal] = useState<Selection>({});
  if (variables && onChange) return [variables, onChange];
  if (variables) return [variables, setLocal];
  return [local, setLocal];
}

export function pick(selection: Selection, key: string, value: string, variables: readonly ViewVariable[]): Selection {
  return changeVariable(selection, key, value, variables);
}
