import { useEffect, useRef } from 'react';
import { EditorState, RangeSetBuilder, StateEffect, StateField } from '@codemirror/state';
import {
  Decoration,
  EditorView,
  drawSelection,
  highlightActiveLine,
  keymap,
  lineNumbers,
  type DecorationSet,
} from '@codemirror/view';
import { HighlightStyle, StreamLanguage, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { sieve } from '@codemirror/legacy-modes/mode/sieve';
import { tags } from '@lezer/highlight';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import type { SieveProblem } from '@mailroom/protocol';
import type { SieveEditorImplProps } from './sieve-editor';
import styles from './filters.module.css';

const setProblems = StateEffect.define<readonly SieveProblem[]>();
const problemLine = Decoration.line({ class: styles.problemLine });

/** The lines that have a problem, marked in the editor (the list under it says what). */
const problemLines = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(marks, transaction) {
    marks = marks.map(transaction.changes);
    for (const effect of transaction.effects) {
      if (!effect.is(setProblems)) continue;
      const doc = transaction.state.doc;
      const builder = new RangeSetBuilder<Decoration>();
      const lines = [...new Set(effect.value.map((p) => p.line))]
        .filter((l) => l <= doc.lines)
        .sort((a, b) => a - b);
      for (const line of lines) {
        const at = doc.line(line).from;
        builder.add(at, at, problemLine);
      }
      marks = builder.finish();
    }
    return marks;
  },
  provide: (field) => EditorView.decorations.from(field),
});

const highlight = HighlightStyle.define([
  { tag: tags.keyword, color: 'var(--color-accent)', fontWeight: '600' },
  { tag: tags.string, color: 'var(--color-success)' },
  { tag: tags.comment, color: 'var(--color-text-subtle)', fontStyle: 'italic' },
  { tag: tags.number, color: 'var(--color-danger)' },
  { tag: [tags.atom, tags.operator], color: 'var(--color-accent-soft-text)' },
]);

const theme = EditorView.theme({
  '&': { fontSize: 'var(--font-sm)', backgroundColor: 'var(--color-surface)', color: 'var(--color-text)' },
  '.cm-content': { fontFamily: 'var(--font-mono)', caretColor: 'var(--color-text)' },
  '.cm-gutters': {
    backgroundColor: 'var(--color-surface-muted)',
    color: 'var(--color-text-subtle)',
    borderRight: '1px solid var(--color-border)',
  },
  '.cm-activeLine': { backgroundColor: 'var(--color-surface-hover)' },
  '&.cm-focused': { outline: 'none' },
});

/** The Sieve editor itself: CodeMirror 6 with the legacy Sieve mode, the problems' lines marked. */
export default function SieveEditorImpl({
  value,
  onChange,
  problems,
  label,
  minLines = 12,
  takeOver,
}: SieveEditorImplProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const changed = useRef(onChange);
  changed.current = onChange;

  useEffect(() => {
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          history(),
          drawSelection(),
          highlightActiveLine(),
          indentOnInput(),
          keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
          StreamLanguage.define(sieve),
          syntaxHighlighting(highlight),
          problemLines,
          theme,
          EditorView.lineWrapping,
          EditorView.contentAttributes.of({ 'aria-label': label, 'aria-multiline': 'true' }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) changed.current(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    // Someone was typing in the stand-in text area: the caret and the focus move here, nothing typed is lost.
    const caret = takeOver();
    if (caret !== null) {
      editor.dispatch({ selection: { anchor: Math.min(caret, editor.state.doc.length) } });
      editor.focus();
    }
    return () => {
      editor.destroy();
      view.current = null;
    };
    // The editor is made once; later values come in through the effect below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // A value set from outside (switching from the builder, a reload) replaces the text.
  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== value)
      editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    view.current?.dispatch({ effects: setProblems.of(problems) });
  }, [problems]);

  return <div ref={host} className={styles.editor} style={{ minHeight: `${minLines * 1.5}em` }} />;
}
