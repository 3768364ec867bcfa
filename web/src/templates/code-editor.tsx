import { liquid } from '@codemirror/lang-liquid';
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { Annotation, Compartment, EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { basicSetup } from 'codemirror';
import { useEffect, useLayoutEffect, useRef } from 'react';
import { errorRange } from './templates';

export interface CodeEditorError {
  readonly message: string;
  readonly line?: number;
  readonly column?: number;
}

export interface CodeEditorProps {
  readonly value: string;
  readonly onChange: (value: string) => void;
  /** The accessible name of the text area (the field's label). */
  readonly label: string;
  /** The id of the text that describes the field (its errors), for aria-describedby. */
  readonly describedBy?: string;
  readonly errors: readonly CodeEditorError[];
  readonly readOnly?: boolean;
  /** One line high at first (a subject, a title) rather than a block of text. */
  readonly short?: boolean;
}

/** Marks the text set from `value` (not typed): no onChange for it. */
const fromOutside = Annotation.define<boolean>();

const theme = EditorView.theme({
  '&': { border: '1px solid var(--mantine-color-gray-4)', borderRadius: '4px', fontSize: '13px', backgroundColor: 'white' },
  '&.cm-focused': { outline: '2px solid var(--mantine-color-blue-6)', outlineOffset: '1px' },
  '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', maxHeight: '420px' },
  // The gutters' default grey is too faint against white for WCAG AA.
  '.cm-gutters': { color: '#5c5f66', backgroundColor: '#f8f9fa' },
});

/**
 * A CodeMirror 6 editor of one Liquid field (lang-liquid over HTML: email HTML and MJML,
 * and plain text reads well in it too). Errors are lint diagnostics at their line and
 * column, set from outside as the preview answers; the document follows `value` when it
 * changes from outside (a locale switched, a reset).
 */
export function CodeEditor({ value, onChange, label, describedBy, errors, readOnly = false, short = false }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const onChangeRef = useRef(onChange);
  const settings = useRef(new Compartment());

  // Before the browser's next event: a keystroke always edits the latest templates.
  useLayoutEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

  // The view is made once, empty; the effects below give it the text and the settings.
  useEffect(() => {
    if (!host.current) return;
    const created = new EditorView({
      parent: host.current,
      state: EditorState.create({
        extensions: [
          basicSetup,
          liquid(),
          lintGutter(),
          EditorView.lineWrapping,
          theme,
          settings.current.of([]),
          EditorView.updateListener.of((update) => {
            if (update.docChanged && !update.transactions.some((tr) => tr.annotation(fromOutside))) {
              onChangeRef.current(update.state.doc.toString());
            }
          }),
        ],
      }),
    });
    view.current = created;
    return () => {
      created.destroy();
      view.current = null;
    };
  }, []);

  useEffect(() => {
    view.current?.dispatch({
      effects: settings.current.reconfigure([
        EditorState.readOnly.of(readOnly),
        EditorView.editable.of(!readOnly),
        EditorView.contentAttributes.of({ 'aria-label': label, ...(describedBy !== undefined && { 'aria-describedby': describedBy }) }),
        short ? [] : EditorView.theme({ '.cm-content': { minHeight: '160px' } }),
      ]),
    });
  }, [readOnly, label, describedBy, short]);

  useEffect(() => {
    const v = view.current;
    if (!v) return;
    const current = v.state.doc.toString();
    if (current !== value) v.dispatch({ changes: { from: 0, to: current.length, insert: value }, annotations: fromOutside.of(true) });
  }, [value]);

  useEffect(() => {
    const v = view.current;
    if (!v) return;
    const source = v.state.doc.toString();
    const diagnostics: Diagnostic[] = errors.map((e) => ({
      ...errorRange(source, e.line, e.column),
      severity: 'error',
      message: e.message,
    }));
    v.dispatch(setDiagnostics(v.state, diagnostics));
  }, [errors, value]);

  return <div ref={host} data-testid="code-editor" />;
}
