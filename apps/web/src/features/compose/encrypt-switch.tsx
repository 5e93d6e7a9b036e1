import { Check, Copy, LockKeyhole, RefreshCw } from 'lucide-react';
import clsx from 'clsx';
import {
  ENCRYPTION_PASSWORD_MAX_LENGTH,
  ENCRYPTION_PASSWORD_MIN_LENGTH,
  validateEncryptionPassword,
} from '@mailroom/protocol';
import { useTranslation } from '../../i18n';
import { Button } from '../../ui/button';
import { IconButton } from '../../ui/icon-button';
import { useCopy } from '../../ui/copy-text';
import { generatePassword } from '../../lib/crypto';
import { Switch } from '../../ui/switch';
import styles from './encrypt-switch.module.css';

export interface EncryptionChoice {
  on: boolean;
  password: string;
}

export const encryptionOff: EncryptionChoice = { on: false, password: '' };

/** The password problem to show, or null when it can be used (SPEC §5: 3 to 20 characters). */
export function encryptionPasswordValid(choice: EncryptionChoice): boolean {
  return !choice.on || validateEncryptionPassword(choice.password);
}

/**
 * Compose's 'encrypt with password' switch: on, it prefills a random 20-character password, shown
 * so it can be copied and passed to the recipients another way.
 */
export function EncryptSwitch({
  value,
  onChange,
}: {
  value: EncryptionChoice;
  onChange: (next: EncryptionChoice) => void;
}) {
  const { t } = useTranslation();
  const { copied, copy: copyText } = useCopy();

  const invalid = value.on && !validateEncryptionPassword(value.password);
  const copy = () => void copyText(value.password);

  return (
    <div className={clsx(styles.box, value.on && styles.on)}>
      <Switch
        frameClassName={styles.switchRow}
        checked={value.on}
        onChange={(on) =>
          onChange({ on, password: on ? value.password || generatePassword() : value.password })
        }
      >
        <LockKeyhole aria-hidden />
        <span>{t('decrypt.encrypt')}</span>
      </Switch>
      {value.on ? (
        <div className={styles.details}>
          <div className={styles.passwordRow}>
            <input
              className={styles.password}
              aria-label={t('decrypt.password')}
              value={value.password}
              maxLength={ENCRYPTION_PASSWORD_MAX_LENGTH * 2}
              spellCheck={false}
              autoComplete="off"
              aria-invalid={invalid}
              onChange={(event) => onChange({ on: true, password: event.target.value })}
            />
            <Button variant="secondary" onClick={copy} aria-live="polite">
              {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
              {copied ? t('decrypt.copied') : t('decrypt.copy')}
            </Button>
            <IconButton
              label={t('decrypt.regenerate')}
              onClick={() => onChange({ on: true, password: generatePassword() })}
            >
              <RefreshCw aria-hidden />
            </IconButton>
          </div>
          {invalid ? (
            <p className={styles.problem} role="alert">
              {t('decrypt.passwordLength', {
                min: ENCRYPTION_PASSWORD_MIN_LENGTH,
                max: ENCRYPTION_PASSWORD_MAX_LENGTH,
              })}
            </p>
          ) : (
            <p className={styles.hint}>{t('decrypt.encryptHint')}</p>
          )}
        </div>
      ) : null}
    </div>
  );
}
