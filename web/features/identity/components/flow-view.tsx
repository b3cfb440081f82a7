import { useMemo } from 'react';
import type { FlowController } from '../kratos/use-flow';
import { FlowFailure, FlowLoading } from './auth-card';
import { FlowForms, type FlowFormsProps } from './flow-forms';
import { FlowMessages, useAutoClear } from './messages';

/** A flow's messages and forms, or its loading and failure states. */
export function FlowView({
  controller,
  initial,
  layout,
  messagesClassName,
}: { controller: FlowController; messagesClassName?: string } & Pick<FlowFormsProps, 'initial' | 'layout'>) {
  const { flow, revision, notice, failure } = controller;
  // A new flow answer or a new notice starts the 10 s until its messages clear (spec §9).
  const version = useMemo(() => ({ revision, notice }), [revision, notice]);
  const messages = useAutoClear([...(notice ? [notice] : []), ...(flow?.ui.messages ?? [])], version);
  if (!flow) {
    return (
      <>
        <FlowMessages messages={messages} className="mb-4" />
        {failure ? <FlowFailure message={failure} onRetry={controller.retry} /> : <FlowLoading />}
      </>
    );
  }
  return (
    <>
      <FlowMessages messages={messages} className={messagesClassName ?? 'mb-5'} />
      <FlowForms
        key={revision}
        flow={flow}
        busy={controller.submitting}
        onSubmit={controller.submit}
        onNotice={controller.setNotice}
        {...(initial ? { initial } : {})}
        {...(layout ? { layout } : {})}
      />
    </>
  );
}
