import { SEARCH_DEBOUNCE_MS } from '@common/constants';
import { Search } from 'lucide-react';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { useDebouncedValue } from '@web/lib/use-debounced-value';

/**
 * The name search: typed text reaches the URL 400 ms after the last keystroke (spec §9) or at once on
 * Enter; a change from elsewhere (back button, a link) shows in the box.
 */
export function SearchInput({ value, onCommit }: { value: string; onCommit: (text: string) => void }) {
  const [text, setText] = useState(value);
  const debounced = useDebouncedValue(text, SEARCH_DEBOUNCE_MS);
  const committed = useRef(value);
  const commit = useEffectEvent((next: string) => {
    if (next.trim() === committed.current) return;
    committed.current = next.trim();
    onCommit(next);
  });
  useEffect(() => commit(debounced), [debounced]);
  const [seen, setSeen] = useState(value);
  if (value !== seen) {
    setSeen(value);
    if (value !== committed.current) {
      committed.current = value;
      setText(value);
    }
  }
  return (
    <div className="relative min-w-48 flex-1">
      <Search className="pointer-events-none absolute left-2.5 top-1/2 size-4 -translate-y-1/2 text-slate-400" aria-hidden="true" />
      <input
        type="search"
        aria-label="Search configs"
        placeholder="Search by name"
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') commit(text);
        }}
        className="h-9 w-full rounded-md border border-slate-300 bg-white pl-8 pr-3 text-sm shadow-sm placeholder:text-slate-400"
      />
    </div>
  );
}
