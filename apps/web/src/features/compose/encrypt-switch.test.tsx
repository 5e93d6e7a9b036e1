import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { COPIED_MS } from '@mailroom/protocol';
import {
  EncryptSwitch,
  encryptionOff,
  encryptionPasswordValid,
  type EncryptionChoice,
} from './encrypt-switch';

function Harness({ onChange }: { onChange?: (choice: EncryptionChoice) => void }) {
  const [choice, setChoice] = useState(encryptionOff);
  return (
    <EncryptSwitch
      value={choice}
      onChange={(next) => {
        setChoice(next);
        onChange?.(next);
      }}
    />
  );
}

describe('the encrypt-with-password switch', () => {
  it('switching on prefills a random 20-character password that Copy puts on the clipboard, saying Copied for 1.5 s', async () => {
    const user = userEvent.setup({
      advanceTimers: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    });
    render(<Harness />);
    expect(screen.queryByRole('textbox', { name: 'Password' })).toBeNull();
    await user.click(screen.getByRole('switch', { name: 'Encrypt with a password' }));
    const field = screen.getByRole<HTMLInputElement>('textbox', { name: 'Password' });
    expect(field.value).toMatch(/^[A-Za-z0-9]{20}$/);

    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe(field.value);
    expect(screen.getByRole('button', { name: 'Copied' })).toBeTruthy();
    await act(() => new Promise((resolve) => setTimeout(resolve, COPIED_MS + 100)));
    expect(screen.getByRole('button', { name: 'Copy' })).toBeTruthy();
  });

  it('a password of fewer than 3 or more than 20 characters is flagged and cannot be used', async () => {
    const user = userEvent.setup();
    let last: EncryptionChoice = encryptionOff;
    render(<Harness onChange={(choice) => (last = choice)} />);
    await user.click(screen.getByRole('switch', { name: 'Encrypt with a password' }));
    const field = screen.getByRole('textbox', { name: 'Password' });
    await user.clear(field);
    await user.type(field, 'ab');
    expect(screen.getByRole('alert').textContent).toBe('The password must have 3 to 20 characters');
    expect(encryptionPasswordValid(last)).toBe(false);
    await user.type(field, 'c');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(encryptionPasswordValid(last)).toBe(true);
    await user.type(field, 'x'.repeat(18));
    expect(encryptionPasswordValid(last)).toBe(false);
    expect(encryptionPasswordValid(encryptionOff)).toBe(true);
  });

  it('New password replaces it with another random one', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('switch', { name: 'Encrypt with a password' }));
    const field = screen.getByRole<HTMLInputElement>('textbox', { name: 'Password' });
    const first = field.value;
    await user.click(screen.getByRole('button', { name: 'New password' }));
    expect(field.value).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(field.value).not.toBe(first);
  });
});
