import type { InputHTMLAttributes } from 'react';
import { PASSWORD_MAX_LENGTH } from '@mailroom/protocol';

/**
 * A new password typed in (a password manager may offer one), at most PASSWORD_MAX_LENGTH characters. Field's id and
 * aria attributes pass through.
 */
export function NewPasswordInput({
  onChange,
  ...rest
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'type'> & { onChange(value: string): void }) {
  return (
    <input
      type="password"
      autoComplete="new-password"
      maxLength={PASSWORD_MAX_LENGTH}
      {...rest}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}
