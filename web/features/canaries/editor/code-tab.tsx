import { lazy, Suspense, useCallback, useRef } from 'react';
import { Loading } from '@web/ui/primitives/loading';
import type { TextDiagnostic } from '../model/diagnostics';
import { ProblemsList } from './problems-list';

// CodeMirror is loaded when the Code tab first opens: neither the shell nor the Form tab pays for it.
const CodeEditor = lazy(() => import('./code-editor'));

/** 1-based line of a character offset. */
export function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let at = 0; at < Math.min(offset, text.length); at += 1) if (text.charCodeAt(at) === 10) line += 1;
  return line;
}

export interface CodeTabProps {
  value: string;
  onChange: (value: string) => void;
  diagnostics: readonly TextDiagnostic[];
  readOnly: boolean;
  /** The resource's kind as the YAML names it ('Canary', 'ScrapeConfig'). */
  kind?: string;
}

/** The Code tab: the whole resource in YAML, with every problem marked at its line and listed below. */
export function CodeTab({ value, onChange, diagnostics, readOnly, kind = 'Canary' }: CodeTabProps) {
  const goTo = useRef<((offset: number) => void) | null>(null);
  const onReady = useCallback((move: (offset: number) => void) => {
    goTo.current = move;
  }, []);
  return (
    <div className="flex flex-col gap-3">
      {readOnly ? null : (
        <p className="text-xs text-slate-500">
          The whole {kind}, as <code>watchkeeper apply</code> takes it. Tab indents; press Escape, then Tab, to leave the editor.
        </p>
      )}
      <Suspense fallback={<Loading text="loading editor..." />}>
        <CodeEditor value={value} onChange={onChange} diagnostics={diagnostics} readOnly={readOnly} label={`${kind} YAML`} onReady={onReady} />
      </Suspense>
      <ProblemsList
        title="Problems"
        problems={diagnostics.map((diagnostic) => ({
          severity: diagnostic.severity,
          message: diagnostic.message,
          line: lineOf(value, diagnostic.from),
          onSelect: () => goTo.current?.(diagnostic.from),
        }))}
      />
    </div>
  );
}
