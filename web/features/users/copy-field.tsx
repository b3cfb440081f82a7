import { Copy } from 'lucide-react';
import { useId } from 'react';
import { IconButton } from '@web/ui/primitives/icon-button';
import { copyToClipboard } from '@web/lib/clipboard';

/** A read-only value with a copy button (the text stays selectable for a manual copy). */
export function CopyField({ label, value, monospace }: { label: string; value: string; monospace?: boolean }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <div className="flex items-center gap-1">
        <input
          id={id}
          readOnly
          value={value}
          onFocus={(event) => event.currentTarget.select()}
          className={`w-full rounded-md border border-slate-300 bg-slate-50 px-3 py-1.5 text-sm text-slate-900 ${monospace ? 'font-mono' : ''}`}
        />
        <IconButton label={`Copy ${label.toLowerCase()}`} icon={<Copy className="size-4" aria-hidden="true" />} onClick={() => void copyToClipboard(value)} />
      </div>
    </div>
  );
}
