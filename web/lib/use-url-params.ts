import { useCallback, useRef } from 'react';
import { useSearchParams } from 'react-router';

export type ParamsChange = (current: URLSearchParams) => URLSearchParams;

/**
 * The router's search params with an updater that composes: react-router hands a functional update the
 * params of the last render, so two changes made before the URL commits (two quick filter picks) would
 * overwrite each other. The latest written params are kept here until the router catches up.
 */
export function useUrlParams(): [URLSearchParams, (change: ParamsChange) => void] {
  const [params, setParams] = useSearchParams();
  const latest = useRef(params);
  const committed = useRef(params);
  if (committed.current !== params) {
    // A navigation landed (ours, or the back button): it is the truth from now on.
    committed.current = params;
    latest.current = params;
  }
  const update = useCallback(
    (change: ParamsChange) => {
      const next = change(latest.current);
      latest.current = next;
      setParams(next);
    },
    [setParams],
  );
  return [params, update];
}
