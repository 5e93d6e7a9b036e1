import { useEffect, useRef } from 'react';
import type { MailScreenContext } from './mail-context';

/** Keys typed into fields, menus and dialogs belong to them, not to the list. */
export function ownedByControl(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (
    target.closest(
      // A ticked row's checkbox keeps the focus after the click: Delete and the arrows still work from there.
      'input:not([type="checkbox"]), textarea, select, [role="menu"], [role="dialog"], [role="alertdialog"], [role="tree"]',
    )
  )
    return true;
  return false;
}

/**
 * SPEC §2 keyboard: up and down move between messages (across page boundaries; with none open, the first).
 * The handler sits on the window so it works wherever focus is in the
 * mail screen, and reads the latest screen through a ref so it is bound once.
 */
export function useMailKeyboard(screen: MailScreenContext): void {
  const latest = useRef(screen);
  latest.current = screen;
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      if (ownedByControl(event.target)) return;
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        latest.current.step(event.key === 'ArrowDown' ? 1 : -1);
      }
    }
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}
