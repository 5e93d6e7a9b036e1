import { useEffect, useState, type ButtonHTMLAttributes, type MouseEvent, type Ref } from 'react';
import { Check, Copy } from 'lucide-react';
import { useTranslation } from '../../i18n';
import { COPIED_MS } from '@mailroom/protocol';
import clsx from 'clsx';
import styles from './user-menu.module.css';

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Clipboard API is missing on plain http; the legacy command still works there.
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    const ok = document.execCommand?.('copy') ?? false;
    area.remove();
    return ok;
  }
}

export interface MemberIdButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  memberId: string;
  ref?: Ref<HTMLButtonElement>;
}

/** Shows the 12-digit member ID; a click copies it and shows 'Copied' for 1.5 s (SPEC §2). */
export function MemberIdButton({ memberId, className, onClick, ref, ...rest }: MemberIdButtonProps) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), COPIED_MS);
    return () => window.clearTimeout(timer);
  }, [copied]);

  async function handleClick(event: MouseEvent<HTMLButtonElement>) {
    onClick?.(event);
    if (await copyText(memberId)) setCopied(true);
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
