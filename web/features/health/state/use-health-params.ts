import { useCallback, useLayoutEffect, useMemo, useRef } from 'react';
import { useUrlParams } from '@web/lib/use-url-params';
import { parseLabelFilter } from './labels';
import { applyHealthPatch, parseHealthParams, type HealthParams, type HealthPatch } from './params';
import { timeRangeFromParam } from './time-range';

/**
 * The Health page's state from the URL, with a stable updater. The label filter and the range keep their
 * identity while their own parameter is unchanged, so opening a check (checkId) does not refilter
 * 10,000 checks or refetch them.
 */
export function useHealthParams(): [HealthParams, (patch: HealthPatch) => void] {
  const [params, setParams] = useUrlParams();
  const labelsText = params.get('labels') ?? '';
  const rangeText = params.get('timeRange') ?? '';
  const labels = useMemo(() => parseLabelFilter(labelsText), [labelsText]);
  const timeRange = useMemo(() => timeRangeFromParam(rangeText), [rangeText]);
  const state = useMemo(() => ({ ...parseHealthParams(params), labels, timeRange }), [params, labels, timeRange]);
  // react-router's setter changes with every navigation; the page's children keep one function.
  const setRef = useRef(setParams);
  useLayoutEffect(() => {
    setRef.current = setParams;
  }, [setParams]);
  const update = useCallback((patch: HealthPatch) => setRef.current((current) => applyHealthPatch(current, patch)), []);
  return [state, update];
}
