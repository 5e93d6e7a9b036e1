import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { readShare, SplitPanes } from './split-panes';

const KEY = 'test:panes';

function renderSplit() {
  render(
    <SplitPanes
      first={<p>list</p>}
      second={<p>reader</p>}
      defaultShare={40}
      minWidths={[370, 400]}
      storageKey={KEY}
      label="Resize"
    />,
  );
  return screen.getByRole('separator', { name: 'Resize' });
}

describe('split panes', () => {
  // jsdom lays nothing out: give every element the width of a 1,000-px main area.
  const width = Object.getOwnPropertyDescriptor(Element.prototype, 'clientWidth')!;
  beforeEach(() => {
    Object.defineProperty(Element.prototype, 'clientWidth', { configurable: true, get: () => 1000 });
  });
  afterEach(() => {
    Object.defineProperty(Element.prototype, 'clientWidth', width);
    localStorage.clear();
  });

  it('starts at the default split with both minimum widths in the grid', () => {
    const separator = renderSplit();
    expect(separator.getAttribute('aria-valuenow')).toBe('40');
    expect(separator.parentElement!.style.gridTemplateColumns).toBe(
      'minmax(370px, 40fr) 0 minmax(400px, 60fr)',
    );
    expect(document.getElementById(separator.getAttribute('aria-controls')!)!.textContent).toBe('list');
  });

  it('moves with the arrow keys and remembers the split', () => {
    const separator = renderSplit();
    fireEvent.keyDown(separator, { key: 'ArrowRight' });
    fireEvent.keyDown(separator, { key: 'ArrowRight', shiftKey: true });
    expect(separator.getAttribute('aria-valuenow')).toBe('52');
    expect(localStorage.getItem(KEY)).toBe('52.00');
    fireEvent.keyDown(separator, { key: 'ArrowLeft' });
    expect(separator.getAttribute('aria-valuenow')).toBe('50');
  });

  it('keeps 370 px for the list and 400 px for the reader', () => {
    const separator = renderSplit();
    fireEvent.keyDown(separator, { key: 'Home' });
    expect(separator.getAttribute('aria-valuenow')).toBe('37');
    fireEvent.keyDown(separator, { key: 'End' });
    expect(separator.getAttribute('aria-valuenow')).toBe('60');
  });

  it('comes back at the remembered split, and a double click restores the default', () => {
    localStorage.setItem(KEY, '55');
    const separator = renderSplit();
    expect(separator.getAttribute('aria-valuenow')).toBe('55');
    fireEvent.doubleClick(separator);
    expect(separator.getAttribute('aria-valuenow')).toBe('40');
    expect(localStorage.getItem(KEY)).toBe('40.00');
  });

  it('ignores a damaged remembered value', () => {
    expect(readShare(KEY, 40, { getItem: () => 'wide' })).toBe(40);
    expect(readShare(KEY, 40, { getItem: () => '100' })).toBe(40);
    expect(readShare(KEY, 40, { getItem: () => null })).toBe(40);
  });

  it('renders with the default split where reading localStorage itself throws (a cross-site frame)', () => {
    const own = Object.getOwnPropertyDescriptor(window, 'localStorage');
    Object.defineProperty(window, 'localStorage', {
      configurable: true,
      get() {
        throw new DOMException('Access is denied for this document.', 'SecurityError');
      },
    });
    try {
      expect(readShare(KEY, 40)).toBe(40);
      expect(renderSplit().getAttribute('aria-valuenow')).toBe('40');
    } finally {
      if (own) Object.defineProperty(window, 'localStorage', own);
    }
  });
});
