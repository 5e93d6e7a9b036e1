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
  /** The first line: a name, or the address. */
  label: string;
  /** A second, quieter line: the address, or what the suggestion is (a group of N). */
  detail?: string;
}

export interface TagInputProps {
  label: string;
  tags: readonly TagItem[];
  /** Typed text to turn into tags: on blur, Enter, comma or semicolon. */
  onCommit(text: string): void;
  onRemove(index: number): void;
  /** The text being typed, as it changes: where an autocomplete asks for its suggestions. */
  onTextChange?(text: string): void;
  /** Suggestions for the text being typed (shown while there is text and the field has focus). */
  suggestions?: readonly TagSuggestion[];
  /** The name of the suggestions' list. */
  suggestionsLabel?: string;
  onPick?(suggestion: TagSuggestion): void;
  autoFocus?: boolean;
}

/**
 * A field of tags (recipients). Shows two tags and '+N' for the rest until it is focused or opened (SPEC §9);
 * flagged pieces always count as shown so an error is never hidden behind '+N'.
 */
export function TagInput({
  label,
  tags,
  onCommit,
  onRemove,
  onTextChange,
  suggestions = [],
  suggestionsLabel,
  onPick,
  autoFocus,
}: TagInputProps) {
  const { t } = useTranslation();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [focused, setFocused] = useState(false);
  const [expanded, setExpanded] = useState(false);
  // The highlighted suggestion (the first by default); Escape closes the list until the text changes.
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState(false);
  const open = focused || expanded;
  const visible = open
    ? tags.map((tag, index) => ({ tag, index }))
    : tags
        .map((tag, index) => ({ tag, index }))
        .filter(({ tag, index }) => index < RECIPIENT_TAGS_SHOWN || tag.invalid);
  const hidden = tags.length - visible.length;
  const listOpen = focused && !dismissed && text.trim() !== '' && suggestions.length > 0;
  const activeIndex = Math.min(active, suggestions.length - 1);
  const optionId = (index: number) => `${id}-option-${index}`;

  function changeText(next: string) {
    setText(next);
    setActive(0);
    setDismissed(false);
    onTextChange?.(next);
  }

  function commit() {
    if (text.trim()) onCommit(text);
    changeText('');
  }

  function pick(suggestion: TagSuggestion) {
    changeText('');
    onPick?.(suggestion);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (listOpen) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((activeIndex + step + suggestions.length) % suggestions.length);
        return;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        pick(suggestions[activeIndex]!);
        return;
      }
      if (event.key === 'Escape') {
        // The list closes; the compose window stays.
        event.preventDefault();
        event.stopPropagation();
        setDismissed(true);
        return;
      }
    }
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
        role={onTextChange ? 'combobox' : undefined}
        aria-autocomplete={onTextChange ? 'list' : undefined}
        aria-expanded={onTextChange ? listOpen : undefined}
        aria-controls={onTextChange ? `${id}-listbox` : undefined}
        aria-activedescendant={listOpen ? optionId(activeIndex) : undefined}
        onChange={(event) => changeText(event.target.value)}
        onKeyDown={onKeyDown}
        onFocus={() => setFocused(true)}
        onBlur={() => {
          setFocused(false);
          commit();
        }}
      />
      {listOpen ? (
        <ul
          id={`${id}-listbox`}
          className={styles.suggestions}
          role="listbox"
          aria-label={suggestionsLabel ?? label}
        >
          {suggestions.map((suggestion, index) => (
            <li
              key={suggestion.key}
              id={optionId(index)}
              role="option"
              aria-selected={index === activeIndex}
              className={clsx(index === activeIndex && styles.activeOption)}
              onMouseEnter={() => setActive(index)}
              // Before the input's blur, which would commit the half-typed text.
              onMouseDown={(event) => {
                event.preventDefault();
                pick(suggestion);
              }}
            >
              <span className={styles.optionLabel}>{suggestion.label}</span>
              {suggestion.detail ? <span className={styles.optionDetail}>{suggestion.detail}</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
