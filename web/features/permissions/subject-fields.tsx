import { ROLES, type SubjectType } from '@common/rbac';
import { useFormContext, useWatch } from 'react-hook-form';
import { Field } from '@web/ui/primitives/field';
import { Select } from '@web/ui/primitives/select';
import { FieldError } from './field-error';
import { SUBJECT_KINDS, subjectKindPatch, type PermissionFormValues } from './form';
import { PersonPicker } from './person-picker';
import { useTeams } from './queries';
import type { PersonOption } from './schema';

const set = { shouldDirty: true, shouldTouch: true, shouldValidate: true } as const;

/** Spec §4: who the permission is about; the picker follows the subject kind. */
export function SubjectFields({ knownPerson }: { knownPerson: PersonOption | null }) {
  const form = useFormContext<PermissionFormValues>();
  const kind = useWatch({ control: form.control, name: 'subjectKind' });
  const subject = useWatch({ control: form.control, name: 'subject' });
  const { errors, touchedFields, isSubmitted } = form.formState;
  // Selects have no blur of their own: their message waits for a choice or a submit attempt.
  const error = touchedFields.subject || isSubmitted ? errors.subject?.message : undefined;

  const changeKind = (next: SubjectType) => {
    if (next === kind) return;
    const patch = subjectKindPatch(next);
    form.setValue('subjectKind', patch.subjectKind, { shouldDirty: true });
    // Keeps the field untouched: a fresh picker does not start with a complaint.
    form.setValue('subject', patch.subject, { shouldDirty: true, shouldValidate: isSubmitted });
  };

  return (
    <div className="grid grid-cols-1 gap-3 sm:grid-cols-[12rem_1fr]">
      <Select label="Subject kind" value={kind} options={SUBJECT_KINDS} onValueChange={changeKind} />
      <div className="flex flex-col gap-1">
        {kind === 'person' ? (
          <PersonPicker
            label="Person"
            value={subject}
            known={knownPerson}
            error={error}
            onChange={(id) => form.setValue('subject', id, set)}
            onBlur={() => form.setValue('subject', form.getValues('subject'), set)}
          />
        ) : kind === 'team' ? (
          <TeamPicker value={subject} error={error} onChange={(id) => form.setValue('subject', id, set)} />
        ) : kind === 'group' ? (
          <>
            <Select label="Role" value={subject} options={ROLES.map((role) => ({ value: role, label: role }))} onValueChange={(role) => form.setValue('subject', role, set)} />
            <FieldError message={error} />
          </>
        ) : (
          <Field
            label={kind === 'notification' ? 'Notification ID' : 'Playbook ID'}
            placeholder="00000000-0000-0000-0000-000000000000"
            autoComplete="off"
            error={errors.subject?.message}
            {...form.register('subject')}
          />
        )}
      </div>
    </div>
  );
}

function TeamPicker({ value, error, onChange }: { value: string; error: string | undefined; onChange: (id: string) => void }) {
  const teams = useTeams();
  const options = (teams.data ?? []).map((team) => ({ value: team.id, label: team.name }));
  return (
    <>
      <Select label="Team" value={value} options={options} onValueChange={onChange} />
      {teams.isLoading ? <p className="text-xs text-slate-500">loading data...</p> : null}
      {teams.error ? <FieldError message={teams.error.message} /> : null}
      {teams.data && options.length === 0 ? <p className="text-xs text-slate-500">No options found</p> : null}
      <FieldError message={error} />
    </>
  );
}
