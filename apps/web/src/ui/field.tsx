import { cloneElement, useId, type ReactElement, type ReactNode } from 'react';
import clsx from 'clsx';
import styles from './field.module.css';

/** What Field gives its control: the label's target, its invalid state and the error line it is described by. */
export interface FieldControlProps {
  id?: string;
  'aria-invalid'?: boolean | 'true' | 'false';
  'aria-describedby'?: string;
}

export interface FieldProps {
  label: ReactNode;
  /** The control: an input, select or textarea (its own id is kept if it has one). */
  children: ReactElement<FieldControlProps>;
  /** A refusal of this value: the control is marked invalid and described by this line (role="alert"). */
  error?: ReactNode;
  /** A line under the control that describes it while there is no error. */
  hint?: ReactNode;
  /**
   * The error line is in the page (empty) before any error, so that a screen reader announces the error as it
   * appears; the hint then stays under it.
   */
  announce?: boolean;
  /** Added to the frame where a screen lays the field out its own way (its place in a row or grid). */
  className?: string;
}

/** SPEC §2 form field: a label, the control and its error line, wired for assistive technology. */
export function Field({ label, children, error, hint, announce, className }: FieldProps) {
  const generated = useId();
  const id = children.props.id ?? generated;
  const hasError = error !== undefined && error !== null && error !== false && error !== '';
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const showError = hasError || announce === true;
  const showHint = hint !== undefined && (!hasError || announce === true);
  const describedBy =
    clsx(children.props['aria-describedby'], showError && errorId, showHint && hintId) || undefined;
  return (
    <div className={clsx(styles.field, className)}>
      <label htmlFor={id}>{label}</label>
      {cloneElement(children, {
        id,
        'aria-invalid': hasError ? true : children.props['aria-invalid'],
        'aria-describedby': describedBy,
      })}
      {showError ? (
        <span id={errorId} className={styles.error} role="alert">
          {hasError ? error : null}
        </span>
      ) : null}
      {showHint ? (
        <span id={hintId} className={styles.hint}>
          {hint}
        </span>
      ) : null}
    </div>
  );
}
