import { useFieldArray, useFormContext } from 'react-hook-form';
import { newCheck, type CanaryFormValues } from '../model/form-values';
import type { CheckTypeInfo } from '../queries';
import { CheckCard } from './check-card';
import { ResourceFields, TypedList } from './resource-form-parts';

export interface CanaryFormProps {
  types: readonly CheckTypeInfo[];
  /** Spec §5: name and namespace cannot be edited once the canary exists. */
  existing: boolean;
  readOnly: boolean;
  /** The server's live messages by form path, shown on fields once touched. */
  live: ReadonlyMap<string, string>;
}

/** The Form tab: the canary's name, namespace, labels and schedule, then its checks (add and remove). */
export function CanaryForm({ types, existing, readOnly, live }: CanaryFormProps) {
  const { control } = useFormContext<CanaryFormValues>();
  const checks = useFieldArray({ control, name: 'checks' });
  return (
    <div className="flex flex-col gap-5">
      <ResourceFields existing={existing} readOnly={readOnly} live={live} namePlaceholder="e.g. web-frontend" />
      <TypedList
        title="Checks"
        emptyText="No checks yet: add one."
        addLabel="Add check"
        menuLabel="Check types"
        types={types}
        readOnly={readOnly}
        items={checks.fields}
        onAdd={(type) => checks.append(newCheck(type))}
      >
        {(check, index, number) => (
          <CheckCard
            key={check.id}
            index={index}
            number={number}
            type={check.type}
            info={types.find((type) => type.type === check.type)}
            readOnly={readOnly}
            onRemove={() => checks.remove(index)}
            live={live}
          />
        )}
      </TypedList>
    </div>
  );
}
