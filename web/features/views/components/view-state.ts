import { useCallback, useMemo, useState } from 'react';
import { useUrlParams } from '@web/lib/use-url-params';
import type { ViewColumn } from '../api/schema';
import { EMPTY_TABLE_STATE, readTableState, writeTableState, type TableState } from '../model/table-state';
import { changeVariable, readVariables, writeVariables, type Selection } from '../model/variables';
import type { ViewVariable } from '../api/schema';

/** The table's state: in the URL on a view's own page, in memory when the view is embedded (a section, a preview). */
export function useTableState(embedded: boolean, columns: readonly ViewColumn[]): [TableState, (next: TableState) => void] {
  const [params, setParams] = useUrlParams();
  const [local, setLocal] = useState<TableState>(EMPTY_TABLE_STATE);
  const fromUrl = useMemo(() => readTableState(params, columns), [params, columns]);
  const setUrl = useCallback((next: TableState) => setParams((current) => writeTableState(current, next)), [setParams]);
  return embedded ? [local, setLocal] : [fromUrl, setUrl];
}

/**
 * What useTableState will give once the view's columns are known, for reading the first page of rows
 * with the answer: the URL's state on a view's own page, the initial (empty) one when embedded.
 */
export function useTableStateReader(embedded: boolean): (columns: readonly ViewColumn[]) => TableState {
  const [params] = useUrlParams();
  return useCallback((columns: readonly ViewColumn[]) => (embedded ? EMPTY_TABLE_STATE : readTableState(params, columns)), [embedded, params]);
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
