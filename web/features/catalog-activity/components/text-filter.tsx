import { SEARCH_DEBOUNCE_MS } from '@common/constants';
import { useEffect, useEffectEvent, useId, useRef, useState } from 'react';
import { useDebouncedValue } from '@web/lib/use-debounced-value';

export interface TextFilterProps {
  label: string;
  value: string;
  placeholder?: string;
  title?: string;
  onCommit: (value: string) => void;
}

/** A text filter that reaches the URL 400 ms after the last keystroke (spec §9), or at once on Enter. */
export function TextFilter({ label, value, placeholder, title, onCommit }: TextFilterProps) {
  const id = useId();
  const [text, setText] = useState(value);
  const debounced = useDebouncedValue(text, SEARCH_DEBOUNCE_MS);
  const committed = useRef(value);
  const commit = useEffectEvent((next: string) => {
    if (next.trim() === committed.current) return;
    committed.current = next.trim();
    onCommit(next.trim());
  });
  useEffect(() => commit(debounced), [debounced]);
  // A change that did not come from here (the back button, a chip): show it.
  const [seen, setSeen] = useState(value);
  if (value !== seen) {
    setSeen(value);
    if (value !== committed.current) {
      committed.current = value;
      setText(value);
    }
  }
  return (
    <div className="flex items-center gap-1.5">
      <label htmlFor={id} className="text-xs font-medium text-slate-600">
        {label}
      </label>
      <input
        id={id}
        type="search"
        value={text}
        placeholder={placeholder}
        title={title}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') commit(text);
        }}
        className="h-9 w-40 rounded-md border border-slate-300 bg-white px-2 text-sm shadow-sm placeholder:text-slate-400"
      />
    </div>
  );
}
