import { SEARCH_DEBOUNCE_MS } from '@common/constants';
import { Search } from 'lucide-react';
import { memo, useEffect, useEffectEvent, useRef, useState } from 'react';
import { useDebouncedValue } from '@web/lib/use-debounced-value';

/** Spec §2 search hint, verbatim. */
export const SEARCH_HINT = 'Filter the list using queries e.g: name=grafana type=Kubernetes::Deployment or health=healthy,unhealthy';

/**
 * The search box: what is typed stays here (so a keystroke repaints only this input), and reaches the
 * page 400 ms after the last keystroke (spec §9), or at once on Enter.
 */
export const SearchBox = memo(function SearchBox({ value, onCommit }: { value: string; onCommit: (query: string) => void }) {
  const [text, setText] = useState(value);
  const debounced = useDebouncedValue(text, SEARCH_DEBOUNCE_MS);
  const committed = useRef(value);
  const commit = useEffectEvent((query: string) => {
    if (query === committed.current) return;
    committed.current = query;
    onCommit(query);
  });
  useEffect(() => commit(debounced), [debounced]);
  // A change that did not come from here (the back button, a link): show it.
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
        aria-label="Search checks"
        title={SEARCH_HINT}
        placeholder={SEARCH_HINT}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') commit(text);
        }}
        className="h-9 w-full rounded-md border border-slate-300 bg-white pl-8 pr-3 text-sm shadow-sm placeholder:text-slate-400"
      />
    </div>
  );
});
