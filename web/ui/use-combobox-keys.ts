import { useState, type KeyboardEvent } from 'react';

/**
 * The keyboard of a search-as-you-type combobox: arrows move through the items (wrapping), Enter picks the
 * highlighted one (and never submits the surrounding form), Escape closes the list.
 */
export function useComboboxKeys<T>(items: readonly T[], pick: (item: T) => void) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      if (items.length > 0) setActive((index) => (index + (event.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const item = items[active];
      if (open && item !== undefined) pick(item);
    } else if (event.key === 'Escape' && open) {
      event.stopPropagation();
      setOpen(false);
    }
  };
  return { open, setOpen, active, setActive, onKeyDown };
}
