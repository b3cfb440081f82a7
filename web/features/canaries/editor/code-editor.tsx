import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { yaml } from '@codemirror/lang-yaml';
import { bracketMatching, defaultHighlightStyle, foldGutter, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { lintGutter, setDiagnostics } from '@codemirror/lint';
import { Compartment, EditorState } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import type { TextDiagnostic } from '../model/diagnostics';

export interface CodeEditorProps {
  value: string;
  onChange: (value: string) => void;
  /** Marks at offsets of `value`; ones past its end are clamped. */
  diagnostics: readonly TextDiagnostic[];
  readOnly: boolean;
  /** The accessible name of the text area. */
  label: string;
  /** Called with a function that moves the cursor to an offset and focuses the editor. */
  onReady?: (goTo: (offset: number) => void) => void;
}

const theme = EditorView.theme({
  '&': { fontSize: '12px', border: '1px solid rgb(203 213 225)', borderRadius: '0.375rem', backgroundColor: 'white' },
  '&.cm-focused': { outline: '2px solid rgb(37 99 235)', outlineOffset: '1px' },
  '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', minHeight: '20rem', maxHeight: '36rem' },
});

/**
 * CodeMirror 6 with YAML, loaded only when the Code tab opens (never in the shell). Tab indents; Escape
 * then Tab leaves the editor (CodeMirror's own way out of a tab-trapping editor).
 */
export default function CodeEditor({ value, onChange, diagnostics, readOnly, label, onReady }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const onChangeRef = useRef(onChange);
  const editable = useRef(new Compartment());

  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

  useEffect(() => {
    if (!host.current) return;
    const created = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          highlightActiveLineGutter(),
          foldGutter(),
          lintGutter(),
          history(),
          drawSelection(),
          indentOnInput(),
          bracketMatching(),
          highlightActiveLine(),
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
          yaml(),
          EditorState.tabSize.of(2),
          editable.current.of([EditorState.readOnly.of(readOnly), EditorView.editable.of(!readOnly)]),
          EditorView.contentAttributes.of({ 'aria-label': label, 'aria-multiline': 'true', role: 'textbox' }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) onChangeRef.current(update.state.doc.toString());
          }),
          theme,
        ],
      }),
    });
    view.current = created;
    onReady?.((offset) => {
      const at = Math.min(Math.max(0, offset), created.state.doc.length);
      created.dispatch({ selection: { anchor: at }, scrollIntoView: true });
      created.focus();
    });
    return () => {
      created.destroy();
      view.current = null;
    };
    // The view is made once; the effects below follow value, read-only and diagnostics.
  }, []);

  useEffect(() => {
    const current = view.current;
    if (current && current.state.doc.toString() !== value) current.dispatch({ changes: { from: 0, to: current.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    view.current?.dispatch({ effects: editable.current.reconfigure([EditorState.readOnly.of(readOnly), EditorView.editable.of(!readOnly)]) });
  }, [readOnly]);

  useEffect(() => {
    const current = view.current;
    if (!current) return;
    const length = current.state.doc.length;
    const clamp = (offset: number) => Math.min(Math.max(0, offset), length);
    current.dispatch(
      setDiagnostics(
        current.state,
        diagnostics.map((diagnostic) => ({ from: clamp(diagnostic.from), to: clamp(Math.max(diagnostic.from, diagnostic.to)), severity: diagnostic.severity, message: diagnostic.message })),
      ),
    );
  }, [diagnostics, value]);

  return <div ref={host} data-testid="code-editor" />;
}
