import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from '../i18n';
import clsx from 'clsx';
import { TriangleAlert, X } from 'lucide-react';
import { RECIPIENT_TAGS_SHOWN } from '@mailroom/protocol';
import styles from './tag-input.module.css';

export interface TagItem {
  /** What the tag shows: a name, or the address itself. */
  text: string;
  /** The full value (an address), shown on hover and read by screen readers. */
  title: string;
  /** A piece that did not pass validation: kept, and marked (SPEC §5). */
  invalid?: boolean;
}

export interface TagSuggestion {
  key: string;
  label: string;
}

export interface TagInputProps {
  label: string;
  tags: readonly TagItem[];
  /** Typed text to turn into tags: on blur, Enter, comma or semicolon. */
  onCommit(text: string): void;
  onRemove(index: number): void;
  /** Where an autocomplete plugs in: suggestions for the text being typed (contacts, when they exist). */
  suggest?(text: string): readonly TagSuggestion[];
  onPick?(suggestion: TagSuggestion): void;
  autoFocus?: boolean;
}

/**
 * A field of tags (recipients). Shows two tags and '+N' for the rest until it is focused or opened (SPEC §9);
 * flagged pieces always count as shown so an error is never hidden behind '+N'.
 */
export function TagInput({ label, tags, onCommit, onRemove, suggest, onPick, autoFocus }: TagInputProps) {
  const { t } = useTranslation();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [focused, setFocused] = useState(false);
  const [expanded, setExpanded] = useState(false);
  const open = focused || expanded;
  const visible = open
    ? tags.map((tag, index) => ({ tag, index }))
    : tags
        .map((tag, index) => ({ tag, index }))
        .filter(({ tag, index }) => index < RECIPIENT_TAGS_SHOWN || tag.invalid);
  const hidden = tags.length - visible.length;
  const suggestions = suggest && text.trim() ? suggest(text.trim()) : [];

  function commit() {
    if (text.trim()) onCommit(text);
    setText('');
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Enter' || event.key === ',' || event.key === ';') {
      if (!text.trim()) return;
      event.preventDefault();
      commit();
    } else if (event.key === 'Backspace' && text === '' && tags.length > 0) {
      onRemove(tags.length - 1);
    }
  }

  return (
    <div
      className={clsx(styles.field, focused && styles.focused)}
      onClick={(event) => {
        if (event.target === event.currentTarget) input.current?.focus();
      }}
    >
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      <ul className={styles.tags} aria-label={label}>
        {visible.map(({ tag, index }) => (
          <li
            key={`${index}-${tag.title}`}
            className={clsx(styles.tag, tag.invalid && styles.invalid)}
            title={tag.invalid ? t('tagInput.invalid', { value: tag.title }) : tag.title}
          >
            {tag.invalid ? <TriangleAlert aria-hidden className={styles.warn} /> : null}
            <span className={styles.text}>{tag.text}</span>
            {tag.invalid ? <span className={styles.srOnly}>{t('tagInput.invalidMark')}</span> : null}
            <button
              type="button"
              className={styles.remove}
              aria-label={t('tagInput.remove', { value: tag.title })}
              onClick={() => onRemove(index)}
            >
              <X aria-hidden />
            </button>
          </li>
        ))}
        {hidden > 0 ? (
          <li>
            <button
              type="button"
              className={styles.more}
              aria-label={t('tagInput.more', { count: hidden })}
              onClick={() => setExpanded(true)}
            >
              +{hidden}
            </button>
          </li>
        ) : null}
      </ul>
      <input
        ref={input}
        id={id}
        className={styles.input}
        value={text}
        autoFocus={autoFocus}
        autoComplete="off"
        spellCheck={false}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        onFocus={() => setFocused(true)}
        onBlur={() => {
          setFocused(false);
          commit();
        }}
      />
      {suggestions.length > 0 ? (
        <ul className={styles.suggestions} role="listbox" aria-label={label}>
          {suggestions.map((suggestion) => (
            <li
              key={suggestion.key}
              role="option"
              aria-selected={false}
              // Before the input's blur, which would commit the half-typed text.
              onMouseDown={(event) => {
                event.preventDefault();
                setText('');
                onPick?.(suggestion);
              }}
            >
              {suggestion.label}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
