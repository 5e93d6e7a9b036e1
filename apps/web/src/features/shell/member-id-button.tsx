import { type ButtonHTMLAttributes, type MouseEvent, type Ref } from 'react';
import { Check, Copy } from 'lucide-react';
import { useTranslation } from '../../i18n';
import clsx from 'clsx';
import { useCopy } from '../../ui/copy-text';
import styles from './user-menu.module.css';

export interface MemberIdButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  memberId: string;
  ref?: Ref<HTMLButtonElement>;
}

/** Shows the 12-digit member ID; a click copies it and shows 'Copied' for 1.5 s (SPEC §2). */
export function MemberIdButton({ memberId, className, onClick, ref, ...rest }: MemberIdButtonProps) {
  const { t } = useTranslation();
  const { copied, copy } = useCopy();

  async function handleClick(event: MouseEvent<HTMLButtonElement>) {
    onClick?.(event);
    await copy(memberId);
  }

  return (
    <button
      ref={ref}
      type="button"
      {...rest}
      className={clsx(styles.memberId, className)}
      aria-label={t('userMenu.copyMemberId', { memberId })}
      data-testid="member-id"
      onClick={(event) => void handleClick(event)}
    >
      <span className={styles.memberIdText}>
        <span className={styles.memberIdLabel}>{t('userMenu.memberId')}</span>
        <span className={styles.memberIdDigits}>{memberId}</span>
      </span>
      {copied ? (
        <span className={styles.copied}>
          <Check aria-hidden />
          {t('userMenu.copied')}
        </span>
      ) : (
        <Copy className={styles.copyIcon} aria-hidden />
      )}
      <span className="visually-hidden" aria-live="polite">
        {copied ? t('userMenu.copied') : ''}
      </span>
    </button>
  );
}
