import { useRef } from 'react';
import { useTranslation } from '../../i18n';
import type { SieveProblem } from '@mailroom/protocol';
import { LazyPart, lazyChunk } from '../../ui/lazy-route';
import styles from './filters.module.css';

export interface SieveEditorProps {
  value: string;
  onChange(value: string): void;
  /** The problems to mark at their lines. */
  problems: readonly SieveProblem[];
  label: string;
  /** Lines the editor is tall at least. */
  minLines?: number;
}

export interface SieveEditorImplProps extends SieveEditorProps {
  /** The caret of the text area shown while the editor loaded, when it had the focus: the editor takes it over. */
  takeOver(): number | null;
}

// CodeMirror (~100 KB) loads with the first raw editor shown, not with the filters list.
const SieveEditorImpl = lazyChunk(() => import('./sieve-editor-impl'));

/** The Sieve editor with syntax highlighting; until it has loaded, a plain text area does the same job. */
export function SieveEditor(props: SieveEditorProps) {
  // Where the text area had the caret when the editor replaced it: typing goes on there.
  const caret = useRef<number | null>(null);
  const fallback = (
    <textarea
      className={styles.plainEditor}
      aria-label={props.label}
      value={props.value}
      spellCheck={false}
      rows={props.minLines ?? 12}
      onChange={(event) => props.onChange(event.target.value)}
      onSelect={(event) => (caret.current = event.currentTarget.selectionStart)}
      onFocus={(event) => (caret.current = event.currentTarget.selectionStart)}
      onBlur={() => (caret.current = null)}
    />
  );
  return (
    <>
      <LazyPart fallback={fallback}>
        <SieveEditorImpl {...props} takeOver={() => caret.current} />
      </LazyPart>
      <SieveProblems problems={props.problems} />
    </>
  );
}

/** The problems under the editor, each with its line and column. */
export function SieveProblems({ problems }: { problems: readonly SieveProblem[] }) {
  const { t } = useTranslation();
  if (problems.length === 0) return null;
  return (
    <ul className={styles.problems} role="alert" aria-label={t('filters.script.problems')}>
      {problems.map((problem, index) => (
        <li key={index}>
          <strong>{t('filters.script.at', { line: problem.line, column: problem.column })}</strong>{' '}
          {problem.message}
        </li>
      ))}
    </ul>
  );
}
