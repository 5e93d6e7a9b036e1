import { useEffect, type ReactNode, type RefObject } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';

export interface VirtualRowsProps {
  count: number;
  rowHeight: number;
  /** The height of a row when it differs (an opened chain); sizesKey changes whenever a size does. */
  sizeOf?: (index: number) => number;
  sizesKey?: string;
  scrollRef: RefObject<HTMLDivElement | null>;
  /** The open row, kept in view as the keyboard steps through the list. */
  openIndex: number;
  getKey(index: number): string | number;
  renderRow(index: number, top: number): ReactNode;
}

/**
 * Only the rows in view (plus a few) for long pages — a page of 1,000 rows scrolls as smoothly as one of 30.
 * A chunk of its own: ordinary pages (30 rows by default) render every row and never load it (DESIGN §5).
 */
export default function VirtualRows({
  count,
  rowHeight,
  sizeOf,
  sizesKey,
  scrollRef,
  openIndex,
  getKey,
  renderRow,
}: VirtualRowsProps) {
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: sizeOf ?? (() => rowHeight),
    overscan: 8,
    getItemKey: getKey,
  });
  useEffect(() => {
    virtualizer.measure();
  }, [sizesKey, virtualizer]);
  useEffect(() => {
    if (openIndex >= 0) virtualizer.scrollToIndex(openIndex, { align: 'auto' });
  }, [openIndex, virtualizer]);
  return <>{virtualizer.getVirtualItems().map((row) => renderRow(row.index, row.start))}</>;
}
