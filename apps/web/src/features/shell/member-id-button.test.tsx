import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { MemberIdButton } from './member-id-button';

describe('MemberIdButton', () => {
  const writeText = vi.fn(async () => {});

  beforeEach(() => {
    vi.useFakeTimers();
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  });
  afterEach(() => {
    vi.useRealTimers();
    writeText.mockClear();
  });

  it("copies the member ID and shows 'Copied' for 1.5 s", async () => {
    render(<MemberIdButton memberId="123456789012" />);
    const button = screen.getByRole('button', { name: /123456789012/ });
    expect(button.textContent).toContain('123456789012');

    await act(async () => {
      fireEvent.click(button);
    });
    expect(writeText).toHaveBeenCalledWith('123456789012');
    expect(screen.getAllByText('Copied').length).toBeGreaterThan(0);

    act(() => vi.advanceTimersByTime(1400));
    expect(screen.queryAllByText('Copied').length).toBeGreaterThan(0);
    act(() => vi.advanceTimersByTime(200));
    expect(screen.queryAllByText('Copied')).toHaveLength(0);
  });
});
