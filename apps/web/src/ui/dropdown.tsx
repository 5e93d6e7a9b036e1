import { cloneElement, useState, type ReactElement, type ReactNode } from 'react';
import type { DropdownMenu } from 'radix-ui';
import { LazyPart, lazyChunk } from './lazy-route';

const load = () => import('./dropdown-impl');
const DropdownImpl = lazyChunk(load);

export type MenuKit = typeof DropdownMenu;

export interface DropdownProps {
  /** A button element; it gets the menu trigger's props. */
  trigger: ReactElement<Record<string, unknown>>;
  /** The menu body, built from the Radix parts handed in once they are loaded. */
  content(menu: MenuKit): ReactNode;
  align?: 'start' | 'center' | 'end';
  modal?: boolean;
  /**
   * Fetches the code `content` renders when that is a chunk of its own (a lazyChunk): it is prefetched with the
   * menu's, and the menu opens once both are in (the lazy part suspends up to the boundary around the whole menu).
   */
  prefetch?(): Promise<unknown>;
  /** Opened from elsewhere too (a keyboard shortcut): the menu is open while this is true. */
  open?: boolean;
  onOpenChange?(open: boolean): void;
}

/**
 * A menu whose Radix implementation (popper, focus management: ~25 KB gzipped) loads on first use, keeping it out
 * of the mail shell's initial JavaScript (DESIGN §5). The chunk is prefetched on hover or focus, so the first
 * click usually opens the menu at once.
 */
export function Dropdown(props: DropdownProps) {
  const [used, setUsed] = useState(false);
  const prefetch = () => {
    void load();
    void props.prefetch?.().catch(() => {});
  };
  const idle = cloneElement(props.trigger, {
    'aria-haspopup': 'menu',
    'aria-expanded': false,
    onPointerEnter: prefetch,
    onFocus: prefetch,
    onClick: () => {
      setUsed(true);
      props.onOpenChange?.(true);
    },
    onKeyDown: (event: KeyboardEvent) => {
      if (event.key === 'ArrowDown') setUsed(true);
    },
  });
  if (!used && !props.open) return idle;
  return (
    <LazyPart fallback={idle} variant="notice" onFailed={() => setUsed(false)}>
      <DropdownImpl {...props} />
    </LazyPart>
  );
}
