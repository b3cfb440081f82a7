import { Search } from 'lucide-react';
import { memo } from 'react';
import { useCommittedText } from '@web/lib/use-committed-text';

export interface SearchBoxProps {
  /** The box's accessible name ('Search checks'). */
  label: string;
  value: string;
  onCommit: (text: string) => void;
  placeholder?: string;
  title?: string;
}

/**
 * A list's search box: what is typed stays here (so a keystroke repaints only this input), and reaches the
 * page 400 ms after the last keystroke (spec §9), or at once on Enter.
 */
export const SearchBox = memo(function SearchBox({ label, value, onCommit, placeholder, title }: SearchBoxProps) {
  const { text, setText, commitNow } = useCommittedText(value, onCommit);
  return (
    <div className="relative min-w-48 flex-1">
      <Search className="pointer-events-none absolute left-2.5 top-1/2 size-4 -translate-y-1/2 text-slate-400" aria-hidden="true" />
      <input
        type="search"
        aria-label={label}
        title={title}
        placeholder={placeholder}
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
