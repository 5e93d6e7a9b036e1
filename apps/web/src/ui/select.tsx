import { DropdownMenu } from 'radix-ui';
import { Check, ChevronDown } from 'lucide-react';
import { useTranslation } from 'react-i18next';
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

/**
 * The select dropdown of SPEC §2, built on the same menu primitive as the other menus so the shell
 * does not pay for a second popover implementation (DESIGN §5 budget).
 */
export function Select<V extends string>({ value, options, onChange, label, disabled }: SelectProps<V>) {
  const { t } = useTranslation();
  const current = options.find((option) => option.value === value);
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className={styles.trigger} aria-label={label} disabled={disabled}>
        <span className={styles.triggerText}>{current?.label ?? t('common.choose')}</span>
        <ChevronDown aria-hidden />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className={styles.content} align="start" sideOffset={4}>
          <DropdownMenu.RadioGroup value={value} onValueChange={(next) => onChange(next as V)}>
            {options.map((option) => (
              <DropdownMenu.RadioItem key={option.value} value={option.value} className={styles.item}>
                <span className={styles.triggerText}>{option.label}</span>
                <DropdownMenu.ItemIndicator className={styles.check}>
                  <Check aria-hidden />
                </DropdownMenu.ItemIndicator>
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
