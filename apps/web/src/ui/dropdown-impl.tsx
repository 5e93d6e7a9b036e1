import { DropdownMenu } from 'radix-ui';
import type { DropdownProps } from './dropdown';
import styles from './menu.module.css';

/** The Radix half of Dropdown, loaded on first use. */
export default function DropdownImpl({ trigger, content, align = 'start', modal = true }: DropdownProps) {
  return (
    <DropdownMenu.Root defaultOpen modal={modal}>
      <DropdownMenu.Trigger asChild>{trigger}</DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className={styles.content} align={align} sideOffset={4}>
          {content(DropdownMenu)}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
