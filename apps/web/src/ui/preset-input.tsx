import type { InputHTMLAttributes } from 'react';
import { PASSWORD_MAX_LENGTH } from '@mailroom/protocol';

type PresetInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange'> & {
  onChange(value: string): void;
};

/**
 * A text input with the attributes of one kind of value set once; it answers the value typed. Field's id and aria
 * attributes pass through.
 */
function presetInput(preset: InputHTMLAttributes<HTMLInputElement>) {
  return function PresetInput({ onChange, ...rest }: PresetInputProps) {
    return <input {...preset} {...rest} onChange={(event) => onChange(event.target.value)} />;
  };
}

/** A member ID (12 digits, SPEC §4): a numeric keyboard, no autofill, its shape as the placeholder. */
export const MemberIdInput = presetInput({
  inputMode: 'numeric',
  autoComplete: 'off',
  maxLength: 20,
  placeholder: '000000000000',
});

/** A new password (a password manager may offer one), at most PASSWORD_MAX_LENGTH characters. */
export const NewPasswordInput = presetInput({
  type: 'password',
  autoComplete: 'new-password',
  maxLength: PASSWORD_MAX_LENGTH,
});

/** A value typed as it is, a name or an address: no autofill, no capital first letter, no spelling check. */
export const VerbatimInput = presetInput({ autoComplete: 'off', autoCapitalize: 'none', spellCheck: false });
