import { DropdownMenu } from 'radix-ui';
import type { DropdownProps } from './dropdown';
import styles from './menu.module.css';

/** The Radix half of Dropdown, loaded on first use. */
export default function DropdownImpl({
  trigger,
  content,
  align = 'start',
  modal = true,
  open,
  onOpenChange,
}: DropdownProps) {
  // Opened by a click on its trigger the first time (defaultOpen), or held open by the caller.
  const state =
    open === undefined ? { defaultOpen: true } : { open, onOpenChange: (o: boolean) => onOpenChange?.(o) };
  return (
    <DropdownMenu.Root {...state} modal={modal}>
      <DropdownMenu.Trigger asChild>{trigger}</DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className={styles.content} align={align} sideOffset={4}>
          {content(DropdownMenu)}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
