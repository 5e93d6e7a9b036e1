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
