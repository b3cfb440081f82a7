import { RESOURCE_SEARCH_DEBOUNCE_MS } from '@common/constants';
import { X } from 'lucide-react';
import { useId, useState } from 'react';
import { PersonAvatar } from '@web/ui/person-cell';
import { useDebouncedValue } from '@web/lib/use-debounced-value';
import { Button } from '@web/ui/primitives/button';
import { Dialog } from '@web/ui/primitives/dialog';
import { Field } from '@web/ui/primitives/field';
import { Loading } from '@web/ui/primitives/loading';
import { personLabel, usePeopleSearch, type Person } from '@web/lib/people';
import { useAddMembers } from './queries';

export interface AddMembersDialogProps {
  teamId: string;
  teamName: string;
  /** People already in the team: listed, but not selectable again. */
  memberIds: ReadonlySet<string>;
  onClose: () => void;
}

/** Finds people by name or email and adds the chosen ones (several at once) to the team. */
export function AddMembersDialog({ teamId, teamName, memberIds, onClose }: AddMembersDialogProps) {
  const [term, setTerm] = useState('');
  const [selected, setSelected] = useState<ReadonlyMap<string, Person>>(new Map());
  const debounced = useDebouncedValue(term, RESOURCE_SEARCH_DEBOUNCE_MS);
  const search = usePeopleSearch(debounced);
  const add = useAddMembers(teamId);
  const listId = useId();
  const chosen = [...selected.values()];

  const toggle = (person: Person, on: boolean) =>
    setSelected((current) => {
      const next = new Map(current);
      if (on) next.set(person.id, person);
      else next.delete(person.id);
      return next;
    });

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Add members to ${teamName}`}
      size="small"
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" disabled={chosen.length === 0 || add.isPending} onClick={() => add.mutate(chosen, { onSuccess: onClose })}>
            {add.isPending ? 'Adding…' : chosen.length > 0 ? `Add ${chosen.length}` : 'Add'}
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-3">
        <Field label="Search people" placeholder="Name or email" autoFocus autoComplete="off" value={term} onChange={(event) => setTerm(event.target.value)} aria-controls={listId} />
        {chosen.length > 0 ? (
          <ul aria-label="Selected people" className="flex flex-wrap gap-1.5">
            {chosen.map((person) => (
              <li key={person.id} className="inline-flex items-center gap-1 rounded-full bg-blue-50 py-0.5 pl-2 pr-1 text-xs text-blue-800 ring-1 ring-blue-200">
                {personLabel(person)}
                <button type="button" aria-label={`Unselect ${personLabel(person)}`} onClick={() => toggle(person, false)} className="rounded-full p-0.5 hover:bg-blue-100">
                  <X className="size-3" aria-hidden="true" />
                </button>
              </li>
            ))}
          </ul>
        ) : null}
        <div id={listId} role="group" aria-label="People" className="max-h-72 overflow-auto rounded-md border border-slate-200">
          <Results term={debounced} search={search} memberIds={memberIds} selected={selected} onToggle={toggle} />
        </div>
      </div>
    </Dialog>
  );
}

function Results({
  term,
  search,
  memberIds,
  selected,
  onToggle,
}: {
  term: string;
  search: ReturnType<typeof usePeopleSearch>;
  memberIds: ReadonlySet<string>;
  selected: ReadonlyMap<string, Person>;
  onToggle: (person: Person, on: boolean) => void;
}) {
  const note = (text: string) => <p className="px-3 py-6 text-center text-sm text-slate-500">{text}</p>;
  // Spec §8 empty texts of a search picker.
  if (term.trim() === '') return note('Start typing to search');
  if (search.isLoading) return <Loading className="py-6" />;
  if (search.error) return <p role="alert" className="px-3 py-6 text-center text-sm text-red-600">{search.error.message}</p>;
  const people = search.data ?? [];
  if (people.length === 0) return note('No options found');
  return (
    <ul className="divide-y divide-slate-100">
      {people.map((person) => {
        const member = memberIds.has(person.id);
        return (
          <li key={person.id}>
            <label className={`flex items-center gap-3 px-3 py-2 text-sm ${member ? 'text-slate-400' : 'cursor-pointer hover:bg-slate-50'}`}>
              <input type="checkbox" className="size-4" disabled={member} checked={member || selected.has(person.id)} onChange={(event) => onToggle(person, event.target.checked)} />
              <PersonAvatar name={personLabel(person)} avatar={person.avatar} />
              <span className="min-w-0 flex-1">
                <span className="block truncate font-medium text-slate-900">{personLabel(person)}</span>
                {person.email ? <span className="block truncate text-xs text-slate-500">{person.email}</span> : null}
              </span>
              {member ? <span className="text-xs">Already a member</span> : null}
            </label>
          </li>
        );
      })}
    </ul>
  );
}
