import type { InputHTMLAttributes, ReactNode } from 'react';
import clsx from 'clsx';
import styles from './switch.module.css';

export interface SwitchInputProps extends Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'type' | 'role' | 'checked' | 'onChange' | 'children'
> {
  checked: boolean;
  onChange(checked: boolean): void;
}

/** The switch control alone (a checkbox with the switch role), for a row that labels it from elsewhere. */
export function SwitchInput({ checked, onChange, className, ...rest }: SwitchInputProps) {
  return (
    <input
      type="checkbox"
      role="switch"
      className={clsx(styles.input, className)}
      checked={checked}
      onChange={(event) => onChange(event.target.checked)}
      {...rest}
    />
  );
}

export interface SwitchProps extends SwitchInputProps {
  /** Shown beside the control (its state, or what it turns on); the name unless aria-label says otherwise. */
  children?: ReactNode;
  /** The frame's place in a row. */
  frameClassName?: string;
}

/** SPEC §2 switch: a control and the text beside it, one click target. */
export function Switch({ children, frameClassName, ...input }: SwitchProps) {
  return (
    <label className={clsx(styles.switch, frameClassName)}>
      <SwitchInput {...input} />
      {children}
    </label>
  );
}
