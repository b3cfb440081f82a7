import { useFieldArray, useFormContext } from 'react-hook-form';
import { SCHEDULE_PRESETS } from '@common/constants';
import { ResourceFields, TypedList } from '@web/features/canaries/editor/resource-form-parts';
import { newEntry, type ScraperFormValues } from '../model/form-values';
import type { ScraperTypeInfo } from '../model/scraper-types';
import { EntryCard } from './entry-card';

/** What a custom schedule may be (server/features/catalog/spec.ts: @hourly by default, at least 30 s apart). */
export const SCRAPER_SCHEDULE_HINT = 'A cron line, @every <duration>, or @never to run it only on demand (Run Now); blank: @hourly';

export interface ScraperFormProps {
  types: readonly ScraperTypeInfo[];
  /** Spec §5: name and namespace cannot be edited once the scraper exists. */
  existing: boolean;
  readOnly: boolean;
  /** The server's live messages by form path, shown on fields once touched. */
  live: ReadonlyMap<string, string>;
}

/** The Form tab: the scraper's name, namespace, labels and schedule, then its sources: the entries of the spec by type (add and remove). */
export function ScraperForm({ types, existing, readOnly, live }: ScraperFormProps) {
  const { control } = useFormContext<ScraperFormValues>();
  const entries = useFieldArray({ control, name: 'entries' });
  return (
    <div className="flex flex-col gap-5">
      <ResourceFields
        existing={existing}
        readOnly={readOnly}
        live={live}
        namePlaceholder="e.g. app-settings"
        schedulePresets={SCHEDULE_PRESETS.scraper}
        scheduleHint={SCRAPER_SCHEDULE_HINT}
      />
      <TypedList
        title="Sources"
        emptyText="Nothing to scrape yet: add a source."
        addLabel="Add source"
        menuLabel="Source types"
        types={types}
        readOnly={readOnly}
        items={entries.fields}
        onAdd={(type) => entries.append(newEntry(type))}
      >
        {(entry, index, number) => (
          <EntryCard
            key={entry.id}
            index={index}
            number={number}
            type={entry.type}
            info={types.find((type) => type.type === entry.type)}
            readOnly={readOnly}
            onRemove={() => entries.remove(index)}
            live={live}
          />
        )}
      </TypedList>
    </div>
  );
}
