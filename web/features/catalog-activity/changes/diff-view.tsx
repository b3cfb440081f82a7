import { cn } from '@web/ui/primitives/cn';

export type DiffLineKind = 'add' | 'remove' | 'hunk' | 'header' | 'context';

/** What a line of a unified diff is: its first characters say it. */
export function diffLineKind(line: string): DiffLineKind {
  if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('Index:') || line.startsWith('====')) return 'header';
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'remove';
  return 'context';
}

const LINE_CLASSES: Readonly<Record<DiffLineKind, string>> = {
  add: 'bg-green-50 text-green-900',
  remove: 'bg-red-50 text-red-900',
  hunk: 'bg-blue-50 text-blue-800',
  header: 'text-slate-500',
  context: 'text-slate-700',
};

/** A unified diff with added lines green and removed lines red (the +/- stay, for who cannot see colour). */
export function DiffView({ diff, label = 'Diff' }: { diff: string; label?: string }) {
  const lines = diff.replace(/\n$/, '').split('\n');
  return (
    <pre aria-label={label} className="max-h-[28rem] overflow-auto rounded-md border border-slate-200 bg-white py-2 font-mono text-xs leading-5">
      {lines.map((line, index) => {
        const kind = diffLineKind(line);
        return (
          <span key={index} data-diff={kind} className={cn('block px-3 whitespace-pre', LINE_CLASSES[kind])}>
            {line === '' ? ' ' : line}
          </span>
        );
      })}
    </pre>
  );
}
