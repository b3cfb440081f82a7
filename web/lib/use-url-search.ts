import { SEARCH_DEBOUNCE_MS } from '@common/constants';
import { useEffect, useRef, useState } from 'react';
import { useDebouncedValue } from './use-debounced-value';

/**
 * A search box kept in the URL: the box answers every keystroke, and `write` puts the trimmed text in the
 * URL once typing pauses (spec §9: 400 ms); a search changed from outside (back button, a shared link)
 * shows in the box. Answers the box's value and its setter.
 */
export function useUrlSearch(fromUrl: string, write: (search: string | undefined) => void): [string, (value: string) => void] {
  const [search, setSearch] = useState(fromUrl);
  const debounced = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const written = useRef(fromUrl);
  const writeRef = useRef(write);
  writeRef.current = write;
  useEffect(() => {
    const next = debounced.trim();
    if (next === written.current) return;
    written.current = next;
    writeRef.current(next || undefined);
  }, [debounced]);
  useEffect(() => {
    if (fromUrl === written.current) return;
    written.current = fromUrl;
    setSearch(fromUrl);
  }, [fromUrl]);
  return [search, setSearch];
}
