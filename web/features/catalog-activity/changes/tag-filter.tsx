import { X } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@web/ui/primitives/button';

export interface TagFilterProps {
  tags: Readonly<Record<string, string>>;
  /** Known tags of the catalog's items, offered while typing. */
  known: readonly { key: string; value: string }[];
  onAdd: (key: string, value: string) => void;
  onRemove: (key: string) => void;
}

/** `key=value` → [key, value]; undefined unless both sides are there. */
export function splitTag(text: string): [string, string] | undefined {
  const at = text.indexOf('=');
  if (at <= 0) return undefined;
  const key = text.slice(0, at).trim();
  const value = text.slice(at + 1).trim();
  return key && value ? [key, value] : undefined;
}

/** Tags the changed configs must have: typed as key=value (the catalog's tags are offered), shown as removable chips. */
export function TagFilter({ tags, known, onAdd, onRemove }: TagFilterProps) {
  const id = useId();
  const [text, setText] = useState('');
  const parsed = splitTag(text);
  const add = () => {
    if (!parsed) return;
    onAdd(parsed[0], parsed[1]);
    setText('');
  };
  return (
    <div className="flex flex-wrap items-center gap-1.5">
      <label htmlFor={id} className="text-xs font-medium text-slate-600">
        Tag
      </label>
      <input
        id={id}
        list={`${id}-known`}
        value={text}
        placeholder="key=value"
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            add();
          }
        }}
        className="h-9 w-40 rounded-md border border-slate-300 bg-white px-2 text-sm shadow-sm placeholder:text-slate-400"
      />
      <datalist id={`${id}-known`}>
        {known.map((tag) => (
          <option key={`${tag.key}=${tag.value}`} value={`${tag.key}=${tag.value}`} />
        ))}
      </datalist>
      <Button size="sm" onClick={add} disabled={!parsed}>
        Add tag
      </Button>
      {Object.entries(tags).map(([key, value]) => (
        <span key={key} className="inline-flex items-center gap-1 rounded-full bg-slate-100 py-0.5 pl-2.5 pr-1 text-xs font-medium text-slate-700 ring-1 ring-inset ring-slate-200">
          {key}={value}
          <button type="button" aria-label={`Remove tag ${key}=${value}`} onClick={() => onRemove(key)} className="inline-flex size-5 items-center justify-center rounded-full hover:bg-slate-200">
            <X className="size-3" aria-hidden="true" />
          </button>
        </span>
      ))}
    </div>
  );
}
