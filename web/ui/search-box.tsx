import { Search } from 'lucide-react';
import { memo, useLayoutEffect, useRef, useState } from 'react';
import { useCommittedText } from '@web/lib/use-committed-text';

export interface SearchBoxProps {
  /** The box's accessible name ('Search checks'). */
  label: string;
  value: string;
  onCommit: (text: string) => void;
  placeholder?: string;
  /** Shown instead of `placeholder` while the box is too narrow for it, so the hint is never cut mid-word. */
  shortPlaceholder?: string;
  title?: string;
}

let measuring: CanvasRenderingContext2D | null | undefined;

/** Whether `text` fits in the input's text area in the input's font. */
function fits(input: HTMLInputElement, text: string): boolean {
  measuring ??= document.createElement('canvas').getContext('2d');
  if (!measuring) return true;
  const style = getComputedStyle(input);
  measuring.font = style.font || `${style.fontSize} ${style.fontFamily}`;
  const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  // A margin: the canvas measures the text a little narrower than the input draws it.
  return measuring.measureText(text).width * 1.1 <= room;
}

/** The placeholder that fits the input: the long one when there is room, else the short one. */
function useFittingPlaceholder(placeholder: string | undefined, short: string | undefined) {
  const ref = useRef<HTMLInputElement>(null);
  const [wide, setWide] = useState(true);
  useLayoutEffect(() => {
    const input = ref.current;
    if (!input || !placeholder || !short || typeof ResizeObserver === 'undefined') return;
    const check = () => setWide(fits(input, placeholder));
    check();
    const observer = new ResizeObserver(check);
    observer.observe(input);
    return () => observer.disconnect();
  }, [placeholder, short]);
  return { ref, placeholder: wide || !short ? placeholder : short };
}

/**
 * A list's search box: what is typed stays here (so a keystroke repaints only this input), and reaches the
 * page 400 ms after the last keystroke (spec §9), or at once on Enter.
 */
export const SearchBox = memo(function SearchBox({ label, value, onCommit, placeholder, shortPlaceholder, title }: SearchBoxProps) {
  const { text, setText, commitNow } = useCommittedText(value, onCommit);
  const shown = useFittingPlaceholder(placeholder, shortPlaceholder);
  return (
    <div className="relative min-w-48 flex-1">
      <Search className="pointer-events-none absolute left-2.5 top-1/2 size-4 -translate-y-1/2 text-slate-400" aria-hidden="true" />
      <input
        ref={shown.ref}
        type="search"
        aria-label={label}
        title={title}
        placeholder={shown.placeholder}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') commitNow();
        }}
        className="h-9 w-full rounded-md border border-slate-300 bg-white pl-8 pr-3 text-sm shadow-sm placeholder:text-slate-400"
      />
    </div>
  );
});
