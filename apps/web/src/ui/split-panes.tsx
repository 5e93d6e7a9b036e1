import { useId, useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import clsx from 'clsx';
import styles from './split-panes.module.css';

export interface SplitPanesProps {
  first: ReactNode;
  second: ReactNode;
  /** The first pane's share of the width in percent when nothing is remembered. */
  defaultShare: number;
  /** The narrowest each pane may get, in px. */
  minWidths: readonly [number, number];
  /** localStorage key of the remembered share. */
  storageKey: string;
  /** What the separator is called to assistive technology. */
  label: string;
  className?: string;
}

const KEY_STEP = 2;
const KEY_STEP_LARGE = 10;

export function readShare(key: string, fallback: number, storage?: Pick<Storage, 'getItem'>): number {
  try {
    // Reading window.localStorage itself throws where storage is denied (private mode, a cross-site frame whose
    // browser blocks third-party storage): inside the try, so the default split will do there.
    const share = Number((storage ?? window.localStorage).getItem(key));
    if (share > 0 && share < 100) return share;
  } catch {
    // Storage is unavailable; the default split will do.
  }
  return fallback;
}

function saveShare(key: string, share: number): void {
  try {
    localStorage.setItem(key, share.toFixed(2));
  } catch {
    // Not remembered, but the split still works.
  }
}

/** Both panes keep their minimum widths, as far as the container allows. */
function clampShare(share: number, width: number, [minFirst, minSecond]: readonly [number, number]): number {
  if (width <= 0) return share;
  const low = (minFirst / width) * 100;
  const high = 100 - (minSecond / width) * 100;
  return low > high ? low : Math.min(high, Math.max(low, share));
}

function columns(share: number, [minFirst, minSecond]: readonly [number, number]): string {
  return `minmax(${minFirst}px, ${share}fr) 0 minmax(${minSecond}px, ${100 - share}fr)`;
}

/**
 * Two panes side by side with a draggable separator (SPEC §2 splitter): mouse, touch or pen drag it, the arrow
 * keys move it (Shift for larger steps, Home/End to the limits), a double click restores the default, and the
 * share is remembered in localStorage. A CSS grid of fr columns, so the layout needs no script to be right on
 * the first paint; a drag restyles the grid directly and React hears only the final share, so long lists are
 * not rendered again on every pointer move. In-house instead of react-resizable-panels, whose 16 KB gzipped
 * did not fit the mail shell's budget (DESIGN §5) for one two-pane split.
 */
export function SplitPanes({
  first,
  second,
  defaultShare,
  minWidths,
  storageKey,
  label,
  className,
}: SplitPanesProps) {
  const [share, setShare] = useState(() => readShare(storageKey, defaultShare));
  const [dragging, setDragging] = useState(false);
  const container = useRef<HTMLDivElement>(null);
  const separator = useRef<HTMLDivElement>(null);
  const live = useRef(share);
  const firstId = useId();

  const show = (next: number) => {
    live.current = next;
    if (container.current) container.current.style.gridTemplateColumns = columns(next, minWidths);
    separator.current?.setAttribute('aria-valuenow', String(Math.round(next)));
  };
  const commit = (next: number) => {
    show(next);
    setShare(next);
    saveShare(storageKey, next);
  };
  const bounded = (next: number) => clampShare(next, container.current?.clientWidth ?? 0, minWidths);

  const shareAt = (clientX: number) => {
    const box = container.current!.getBoundingClientRect();
    return bounded(((clientX - box.left) / box.width) * 100);
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    event.currentTarget.focus();
    setDragging(true);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (event.currentTarget.hasPointerCapture(event.pointerId)) show(shareAt(event.clientX));
  };
  const onPointerEnd = (event: PointerEvent<HTMLDivElement>) => {
    if (!event.currentTarget.hasPointerCapture(event.pointerId)) return;
    event.currentTarget.releasePointerCapture(event.pointerId);
    setDragging(false);
    commit(live.current);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.shiftKey ? KEY_STEP_LARGE : KEY_STEP;
    const moves: Record<string, number> = {
      ArrowLeft: live.current - step,
      ArrowRight: live.current + step,
      Home: 0,
      End: 100,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    commit(bounded(next));
  };

  return (
    <div
      ref={container}
      className={clsx(styles.split, dragging && styles.dragging, className)}
      style={{ gridTemplateColumns: columns(share, minWidths) }}
    >
      <div id={firstId} className={styles.pane}>
        {first}
      </div>
      <div
        ref={separator}
        role="separator"
        aria-orientation="vertical"
        aria-label={label}
        aria-controls={firstId}
        aria-valuenow={Math.round(share)}
        aria-valuemin={0}
        aria-valuemax={100}
        tabIndex={0}
        className={styles.separator}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerEnd}
        onPointerCancel={onPointerEnd}
        onKeyDown={onKeyDown}
        onDoubleClick={() => commit(bounded(defaultShare))}
      />
      <div className={styles.pane}>{second}</div>
    </div>
  );
}
