import { useId, useState, type ReactNode } from 'react';
import { useCatalogueText } from './catalogue-text';
import page from './settings-page.module.css';
import rows from './address-rows.module.css';
import { VerbatimInput } from './preset-input';

/**
 * The name of a new address (an alias, an address on a domain): the local part typed, then its domain on the same
 * line — `domain` shown as "@domain", or `children` (a choice of domains) — with the refusal under it (the form's own
 * check or the server's, worded by the caller) and an optional hint.
 */
export function LocalPartField({
  label,
  value,
  onChange,
  errorText,
  domain,
  hint,
  children,
}: {
  label: string;
  value: string;
  onChange(value: string): void;
  errorText: string | null;
  domain?: string;
  hint?: string;
  children?: ReactNode;
}) {
  const id = useId();
  return (
    <div className={page.field}>
      <label htmlFor={`${id}-name`}>{label}</label>
      <span className={rows.nameRow}>
        <VerbatimInput
          id={`${id}-name`}
          value={value}
          maxLength={64}
          aria-invalid={errorText ? true : undefined}
          aria-describedby={hint ? `${id}-hint ${id}-error` : `${id}-error`}
          onChange={onChange}
        />
        {domain !== undefined ? <span className={rows.domain}>@{domain}</span> : null}
        {children}
      </span>
      <span id={`${id}-error`} className={page.error} role="alert">
        {errorText}
      </span>
      {hint ? (
        <span id={`${id}-hint`} className={page.fieldHint}>
          {hint}
        </span>
      ) : null}
    </div>
  );
}

/**
 * What is typed as a new address's name and what is said of it: the first rule it breaks (`check` gives a catalogue
 * code), shown once something is typed or a submit was tried, and the server's refusal (`serverError`, worded) until the
 * name changes (`onEdit`). `field` goes to LocalPartField; `attempt()` on submit says whether `name` may be sent;
 * `clear()` once it was created.
 */
export function useLocalPart(
  check: (name: string) => string | null,
  serverError: string | null,
  onEdit: () => void,
) {
  const [value, setValue] = useState('');
  const [shown, setShown] = useState(false);
  const name = value.trim();
  const problem = check(name);
  const problemText = useCatalogueText(shown ? problem : null);
  return {
    name,
    attempt(): boolean {
      setShown(true);
      return problem === null;
    },
    clear() {
      setValue('');
      setShown(false);
    },
    field: {
      value,
      onChange(typed: string) {
        setValue(typed);
        setShown(typed.trim() !== '');
        onEdit();
      },
      errorText: serverError ?? problemText,
    },
  };
}
