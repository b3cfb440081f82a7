import { useId } from 'react';
import { useCommittedText } from '@web/lib/use-committed-text';

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
  const { text, setText, commitNow } = useCommittedText(value, onCommit);
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
          if (event.key === 'Enter') commitNow();
        }}
        className="h-9 w-40 rounded-md border border-slate-300 bg-white px-2 text-sm shadow-sm placeholder:text-slate-400"
      />
    </div>
  );
}
