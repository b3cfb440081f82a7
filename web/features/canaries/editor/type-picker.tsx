import { FileCode } from 'lucide-react';
import { useId } from 'react';
import { Button } from '@web/ui/primitives/button';
import { EmptyState } from '@web/ui/primitives/empty-state';
import { CheckIcon } from '@web/ui/check-icon';

/** One card: a type's key, its label and its icon name (check types and scraper types alike). */
export interface PickableType {
  type: string;
  label: string;
  icon: string;
}

const cardClass =
  'flex flex-col items-center gap-2 rounded-lg border border-slate-200 bg-white p-4 text-sm font-medium text-slate-800 shadow-sm transition-colors hover:border-blue-400 hover:bg-blue-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600';

export interface TypePickerProps {
  types: readonly PickableType[];
  onPick: (type: string) => void;
  onCode: () => void;
  onBack: () => void;
  /** The grid's heading (and the region's name); the health check editor's by default. */
  heading?: string;
  /** What an empty grid says. */
  empty?: { title: string; description: string };
}

const CHECK_EMPTY = { title: 'No check types', description: 'This server runs no check types; write the canary in YAML instead.' };

/**
 * The first step of a new resource (spec §2 "Resource spec editor"): a grid of cards, one per type this
 * server runs (check types, scraper types), or straight to YAML.
 */
export function TypePicker({ types, onPick, onCode, onBack, heading = 'Choose the type of check', empty = CHECK_EMPTY }: TypePickerProps) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="flex max-w-4xl flex-col gap-4">
      <h2 id={headingId} className="text-sm font-semibold text-slate-900">
        {heading}
      </h2>
      {types.length === 0 ? (
        <EmptyState title={empty.title} description={empty.description} />
      ) : (
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
          {types.map((type) => (
            <li key={type.type}>
              <button type="button" className={`${cardClass} w-full`} onClick={() => onPick(type.type)}>
                <CheckIcon icon={type.icon} type={type.type} className="size-6 text-blue-600" />
                <span>{type.label}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="flex items-center gap-2">
        <Button onClick={onBack}>Back</Button>
        <Button variant="ghost" onClick={onCode}>
          <FileCode className="size-4" aria-hidden="true" />
          Write YAML instead
        </Button>
      </div>
    </section>
  );
}
