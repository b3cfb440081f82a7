import { CircleDot, FileSearch, Lightbulb, MessageSquare, Paperclip, RefreshCcw, UserPlus } from 'lucide-react';
import type { ReactNode } from 'react';
import { DateTime } from '@web/ui/primitives/date-time';
import { Loading } from '@web/ui/primitives/loading';
import { useTimeline } from '../api';

/** What each event of spec §4 reads as, and its icon. */
const EVENTS: Record<string, { label: string; icon: ReactNode }> = {
  'incident.created': { label: 'Incident created', icon: <CircleDot className="size-4" aria-hidden="true" /> },
  'incident.status_updated': { label: 'Status changed', icon: <RefreshCcw className="size-4" aria-hidden="true" /> },
  'incident_status.updated': { label: 'Incident updated', icon: <RefreshCcw className="size-4" aria-hidden="true" /> },
  'responder.created': { label: 'Responder added', icon: <UserPlus className="size-4" aria-hidden="true" /> },
  'responder.commented': { label: 'Comment', icon: <MessageSquare className="size-4" aria-hidden="true" /> },
  'hypothesis.created': { label: 'Hypothesis added', icon: <Lightbulb className="size-4" aria-hidden="true" /> },
  'hypothesis.status_updated': { label: 'Hypothesis status changed', icon: <Lightbulb className="size-4" aria-hidden="true" /> },
  'evidence.created': { label: 'Evidence attached', icon: <Paperclip className="size-4" aria-hidden="true" /> },
  'evidence.done_definition_added': { label: 'Definition of done', icon: <FileSearch className="size-4" aria-hidden="true" /> },
};

/** The incident's timeline, written by the server for every event (spec §4 names), oldest first. */
export function Timeline({ incidentId }: { incidentId: string }) {
  const timeline = useTimeline(incidentId);
  return (
    <section aria-labelledby="timeline-heading" className="flex flex-col gap-2">
      <h2 id="timeline-heading" className="text-sm font-semibold text-slate-900">
        Timeline
      </h2>
      {timeline.isLoading ? <Loading /> : null}
      {timeline.error ? (
        <p role="alert" className="text-sm text-red-600">
          {timeline.error.message}
        </p>
      ) : null}
      <ol aria-label="Timeline" className="flex flex-col">
        {(timeline.data ?? []).map((event) => {
          const known = EVENTS[event.type];
          return (
            <li key={event.id} data-event={event.type} className="relative flex gap-3 border-l border-slate-200 pb-3 pl-4 last:pb-0">
              <span className="absolute -left-2.5 top-0 inline-flex size-5 items-center justify-center rounded-full bg-white text-slate-500">{known?.icon ?? <CircleDot className="size-4" aria-hidden="true" />}</span>
              <div className="min-w-0 text-sm">
                <div className="text-xs text-slate-500">
                  <DateTime value={event.created_at} /> · {event.created_by?.name || event.created_by?.email || 'the system'}
                </div>
                <div className="font-medium text-slate-800">{known?.label ?? event.type}</div>
                {event.description ? <div className="break-words text-slate-600">{event.description}</div> : null}
              </div>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
