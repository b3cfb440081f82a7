import { X } from 'lucide-react';
import { useState } from 'react';
import { useAccess } from '@web/app/session';
import { PersonPicker } from '@web/features/permissions/person-picker';
import { toast } from '@web/lib/toast';
import { PersonCell } from '@web/ui/person-cell';
import { IconButton } from '@web/ui/primitives/icon-button';
import { useIncidentWrite, type IncidentRow } from '../api';

/** Commander, communicator and responders: who works this incident. */
export function PeoplePanel({ incident }: { incident: IncidentRow }) {
  const access = useAccess();
  const canWrite = access.can('incident', 'write');
  const canRespond = access.can('responder', 'write');
  const write = useIncidentWrite(incident.id);
  const [adding, setAdding] = useState('');
  const setRole = (column: 'commander_id' | 'communicator_id', id: string) =>
    write.mutate({ table: 'incidents', method: 'update', id: incident.id, values: { [column]: id || null } }, { onError: (error) => toast.error(error) });

  return (
    <section aria-label="People" className="flex flex-col gap-4">
      {canWrite ? (
        <>
          <PersonPicker label="Commander" value={incident.commander_id ?? ''} onChange={(id) => setRole('commander_id', id)} known={incident.commander ? { ...incident.commander, name: incident.commander.name ?? '', avatar: incident.commander.avatar ?? null } : null} />
          <PersonPicker label="Communicator" value={incident.communicator_id ?? ''} onChange={(id) => setRole('communicator_id', id)} />
        </>
      ) : (
        <div className="flex flex-col gap-1">
          <span className="text-sm font-medium text-slate-700">Commander</span>
          {incident.commander ? <PersonCell name={incident.commander.name ?? ''} email={incident.commander.email} /> : <span className="text-sm text-slate-500">None</span>}
        </div>
      )}
      <div className="flex flex-col gap-2">
        <h2 className="text-sm font-medium text-slate-700">Responders</h2>
        {incident.responders.length > 0 ? (
          <ul aria-label="Responders" className="flex flex-col gap-1">
            {incident.responders.map((responder) => (
              <li key={responder.id} className="flex items-center justify-between gap-2 text-sm">
                <PersonCell name={responder.name ?? ''} />
                {canRespond ? (
                  <IconButton
                    label={`Remove ${responder.name ?? 'responder'}`}
                    icon={<X className="size-3.5" aria-hidden="true" />}
                    onClick={() =>
                      write.mutate(
                        { table: 'responders', method: 'delete', id: responder.id },
                        { onSuccess: () => toast.success(`${responder.name ?? 'Responder'} removed`), onError: (error) => toast.error(error) },
                      )
                    }
                  />
                ) : null}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-500">No responders yet.</p>
        )}
        {canRespond ? (
          <PersonPicker
            label="Add responder"
            value={adding}
            onChange={(id) => {
              if (!id) return setAdding('');
              if (incident.responders.some((responder) => responder.person_id === id)) {
                toast.error('This person is already a responder');
                return undefined;
              }
              setAdding(id);
              write.mutate(
                { table: 'responders', method: 'insert', values: { incident_id: incident.id, type: 'person', person_id: id } },
                {
                  onSuccess: () => toast.success('Responder added'),
                  onError: (error) => toast.error(error),
                  onSettled: () => setAdding(''),
                },
              );
            }}
          />
        ) : null}
      </div>
    </section>
  );
}
