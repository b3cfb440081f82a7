import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { SEARCH_DEBOUNCE_MS } from '@common/constants';
import { useDebouncedValue } from './use-debounced-value';

/**
 * The text of a search or filter box: kept here while it is typed (a keystroke repaints only the box) and
 * committed 400 ms after the last keystroke (spec §9), or at once with `commitNow` (Enter). Only a change
 * of the trimmed text is committed, trimmed. A value changed elsewhere (the back button, a link, a chip)
 * replaces what the box shows.
 */
export function useCommittedText(value: string, onCommit: (text: string) => void) {
  const [text, setText] = useState(value);
  const debounced = useDebouncedValue(text, SEARCH_DEBOUNCE_MS);
  const committed = useRef(value);
  const commit = useEffectEvent((next: string) => {
    if (next.trim() === committed.current) return;
    committed.current = next.trim();
    onCommit(next.trim());
  });
  useEffect(() => commit(debounced), [debounced]);
  // A change that did not come from here: show it.
  const [seen, setSeen] = useState(value);
  if (value !== seen) {
    setSeen(value);
    if (value !== committed.current) {
      committed.current = value;
      setText(value);
    }
  }
  return { text, setText, commitNow: () => commit(text) };
}
