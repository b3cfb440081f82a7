import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { createFlow, getFlow, submitFlow, type FlowOutcome } from './client';
import { IDENTITY_KEY, useFollow } from './follow';
import type { Flow, FlowKind, UiText } from './schema';
import { notice as ownNotice } from './texts';

export interface FlowController {
  flow: Flow | undefined;
  /** Changes with every flow the server sends: forms remount with its values. */
  revision: number;
  loading: boolean;
  /** Why the flow cannot be shown (a refused request, a network failure). */
  failure: string | undefined;
  /** A message of the console's own above the form (a restarted flow's reason, a failed submit). */
  notice: UiText | undefined;
  submitting: boolean;
  submit: (body: Record<string, unknown>) => Promise<void>;
  /** Shows a message of the page's own (e.g. a cancelled security key prompt). */
  setNotice: (notice: UiText | undefined) => void;
  retry: () => void;
}

const flowKey = (kind: FlowKind, id: string) => [IDENTITY_KEY, 'flow', kind, id] as const;
const newFlowKey = (kind: FlowKind, params: Record<string, string>) => [IDENTITY_KEY, 'flow', kind, 'new', params] as const;

function pick(params: URLSearchParams, names: readonly string[]): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of names) {
    const value = params.get(name);
    if (value !== null && value !== '') picked[name] = value;
  }
  return picked;
}

function failureText(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'An error occurred';
}

/**
 * A self-service flow of `kind` for the current page: the flow named by `?flow=`, or a new one created
 * with the page's `createParams` (return_to, refresh, aal…), after which the URL names it. Submits go
 * to the server as JSON; the answer is the flow again (rendered with its messages), a redirect to
 * follow, or a reason to start over (spec §8).
 */
export function useFlow(kind: FlowKind, createParams: readonly string[]): FlowController {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const queryClient = useQueryClient();
  const follow = useFollow();
  const [notice, setNotice] = useState<UiText | undefined>();
  const flowId = params.get('flow') ?? undefined;
  const here = `${location.pathname}${location.search}`;
  const args = pick(params, createParams);
  // The page's own parameters that stay in the URL beside `flow` (e.g. return_to for a Go back link).
  const kept = pick(params, ['return_to']);

  const load = useQuery({
    queryKey: flowId ? flowKey(kind, flowId) : newFlowKey(kind, args),
    queryFn: () => (flowId ? getFlow(kind, flowId, here) : createFlow(kind, args, here)),
    staleTime: Infinity,
    gcTime: flowId ? 5 * 60_000 : 0,
    retry: false,
    refetchOnWindowFocus: false,
  });

  const restart = useCallback(
    (outcome: Extract<FlowOutcome, { type: 'restart' }>) => {
      setNotice(outcome.message);
      queryClient.removeQueries({ queryKey: [IDENTITY_KEY, 'flow', kind, 'new'] });
      if (outcome.useFlowId) {
        setParams({ ...kept, flow: outcome.useFlowId }, { replace: true });
        return;
      }
      const next = new URLSearchParams(params);
      next.delete('flow');
      if (outcome.dropReturnTo) next.delete('return_to');
      setParams(next, { replace: true });
    },
    [kept, kind, params, queryClient, setParams],
  );

  const apply = useCallback(
    async (outcome: FlowOutcome) => {
      switch (outcome.type) {
        case 'flow':
          queryClient.setQueryData(flowKey(kind, outcome.flow.id), outcome);
          if (outcome.flow.id !== flowId) setParams({ ...kept, flow: outcome.flow.id }, { replace: true });
          return;
        case 'redirect':
          await follow(outcome.to);
          return;
        case 'restart':
          restart(outcome);
          return;
        case 'failed':
          setNotice(ownNotice(outcome.message));
      }
    },
    [flowId, follow, kept, kind, queryClient, restart, setParams],
  );

  // A loaded or created flow may itself be a redirect or a restart (an expired id, a signed-in visitor).
  // Each answer is acted on once, however often the page renders meanwhile.
  const loaded = load.data;
  const handled = useRef<FlowOutcome | undefined>(undefined);
  useEffect(() => {
    if (!loaded || loaded.type === 'failed' || handled.current === loaded) return;
    if (loaded.type === 'flow' && loaded.flow.id === flowId) return;
    handled.current = loaded;
    void apply(loaded);
  }, [apply, flowId, loaded]);

  const mutation = useMutation({
    mutationFn: (body: Record<string, unknown>) => {
      if (!flowId) throw new Error('The form is not loaded yet.');
      return submitFlow(kind, flowId, body, here);
    },
    meta: { toast: false },
  });

  const submit = useCallback(
    async (body: Record<string, unknown>) => {
      setNotice(undefined);
      try {
        await apply(await mutation.mutateAsync(body));
      } catch (error) {
        setNotice(ownNotice(failureText(error)));
      }
    },
    [apply, mutation],
  );

  const flow = loaded?.type === 'flow' && loaded.flow.id === flowId ? loaded.flow : undefined;
  const failure = load.isError ? failureText(load.error) : loaded?.type === 'failed' ? loaded.message : undefined;
  return {
    flow,
    revision: load.dataUpdatedAt,
    loading: !flow && !failure,
    failure,
    notice,
    submitting: mutation.isPending,
    submit,
    setNotice,
    retry: () => void load.refetch(),
  };
}
