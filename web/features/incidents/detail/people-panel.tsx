import { Users, X } from 'lucide-react';
import { useState } from 'react';
import { useAccess } from '@web/app/session';
import { PersonPicker } from '@web/features/permissions/person-picker';
import { useTeams } from '@web/features/permissions/queries';
import { toast } from '@web/lib/toast';
import { PersonCell } from '@web/ui/person-cell';
import { IconButton } from '@web/ui/primitives/icon-button';
import { Select } from '@web/ui/primitives/select';
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
                {responder.type === 'team' ? (
                  <span className="flex min-w-0 items-center gap-2">
                    <Users className="size-4 shrink-0 text-slate-500" aria-hidden="true" />
                    <span className="truncate">{responder.name}</span>
                    <span className="text-xs text-slate-500">team</span>
                  </span>
                ) : (
                  <PersonCell name={responder.name ?? ''} />
                )}
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
        {canRespond ? <AddTeam incident={incident} /> : null}
      </div>
    </section>
  );
}

/** Adds a team as a responder: the teams not yet responding, by name. */
function AddTeam({ incident }: { incident: IncidentRow }) {
  const teams = useTeams();
  const write = useIncidentWrite(incident.id);
  const taken = new Set(incident.responders.map((responder) => responder.team_id).filter(Boolean));
  const options = (teams.data ?? []).filter((team) => !taken.has(team.id)).map((team) => ({ value: team.id, label: team.name }));
  if (teams.error) return <p className="text-xs text-red-700">{teams.error.message}</p>;
  if (!teams.data || teams.data.length === 0) return null;
  return (
    <Select
      label="Add team"
      value=""
      placeholder={options.length === 0 ? 'Every team responds' : 'Choose a team'}
      options={options}
      onValueChange={(teamId) =>
        write.mutate(
          { table: 'responders', method: 'insert', values: { incident_id: incident.id, type: 'team', team_id: teamId } },
          { onSuccess: () => toast.success('Responder added'), onError: (error) => toast.error(error) },
        )
      }
    />
  );
}
