import type { InputHTMLAttributes } from 'react';

/**
 * A member ID typed in (12 digits, SPEC §4): a numeric keyboard, no autofill, its shape as the placeholder. Field's
 * id and aria attributes pass through.
 */
export function MemberIdInput({
  onChange,
  ...rest
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange'> & { onChange(value: string): void }) {
  return (
    <input
      inputMode="numeric"
      autoComplete="off"
      maxLength={20}
      placeholder="000000000000"
      {...rest}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}
