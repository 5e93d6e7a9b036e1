import { forwardRef, type SelectHTMLAttributes } from 'react';
import { Check, ChevronDown } from 'lucide-react';
import { useTranslation } from '../i18n';
import { Dropdown } from './dropdown';
import styles from './menu.module.css';

export interface SelectOption<V extends string> {
  value: V;
  label: string;
}

export interface SelectProps<V extends string> {
  value: V;
  options: readonly SelectOption<V>[];
  onChange(value: V): void;
  /** The accessible name; the visible text is the chosen option. */
  label: string;
  disabled?: boolean;
}

/** The select dropdown of SPEC §2, on the same lazily loaded menu as the other menus. */
export function Select<V extends string>({ value, options, onChange, label, disabled }: SelectProps<V>) {
  const { t } = useTranslation();
  const current = options.find((option) => option.value === value);
  return (
    <Dropdown
      modal={false}
      trigger={
        <button type="button" className={styles.trigger} aria-label={label} disabled={disabled}>
          <span className={styles.triggerText}>{current?.label ?? t('common.choose')}</span>
          <ChevronDown aria-hidden />
        </button>
      }
      content={(Menu) => (
        <Menu.RadioGroup value={value} onValueChange={(next) => onChange(next as V)}>
          {options.map((option) => (
            <Menu.RadioItem key={option.value} value={option.value} className={styles.item}>
              <span className={styles.triggerText}>{option.label}</span>
              <Menu.ItemIndicator className={styles.check}>
                <Check aria-hidden />
              </Menu.ItemIndicator>
            </Menu.RadioItem>
          ))}
        </Menu.RadioGroup>
      )}
    />
  );
}

export interface NativeSelectOption {
  value: string | number;
  label: string;
  lang?: string;
  disabled?: boolean;
}

export interface NativeSelectProps extends Omit<
  SelectHTMLAttributes<HTMLSelectElement>,
  'value' | 'onChange' | 'children'
> {
  value: string | number;
  options: readonly NativeSelectOption[];
  /** The chosen option's value as the DOM gives it (a string). */
  onChange(value: string): void;
  /** An option with the value '' before the others ("no parent", "any folder"). */
  empty?: string;
  /** The empty option only prompts for a choice ("Choose a folder"): it cannot be chosen again. */
  emptyDisabled?: boolean;
}

/** The browser's own select, for forms where a long list wants the platform's picker (folders, fields, groups). */
export const NativeSelect = forwardRef<HTMLSelectElement, NativeSelectProps>(function NativeSelect(
  { value, options, onChange, empty, emptyDisabled, ...rest },
  ref,
) {
  return (
    <select ref={ref} value={value} onChange={(event) => onChange(event.target.value)} {...rest}>
      {empty !== undefined ? (
        <option value="" disabled={emptyDisabled}>
          {empty}
        </option>
      ) : null}
      {options.map((option) => (
        <option key={option.value} value={option.value} lang={option.lang} disabled={option.disabled}>
          {option.label}
        </option>
      ))}
    </select>
  );
});
