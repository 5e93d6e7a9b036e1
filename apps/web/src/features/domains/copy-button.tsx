import { useEffect, useState } from 'react';
import { Check, Copy } from 'lucide-react';
import { COPIED_MS } from '@mailroom/protocol';
import { useTranslation } from '../../i18n';
import { Button } from '../../ui/button';
import styles from './domains.module.css';

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No Clipboard API (plain http): the legacy command still works there.
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

/** Copies `text` (a record's name or value, a zone snippet) and says 'Copied' for a moment. */
export function CopyButton({ text, label, visible }: { text: string; label: string; visible?: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), COPIED_MS);
    return () => window.clearTimeout(timer);
  }, [copied]);
  return (
    <Button
      variant="ghost"
      iconOnly={!visible}
      aria-label={label}
      title={copied ? t('domains.copied') : t('domains.copy')}
      onClick={() => void copyText(text).then((ok) => setCopied(ok))}
    >
      {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
      {visible}
      <span className="visually-hidden" aria-live="polite">
        {copied ? t('domains.copied') : ''}
      </span>
    </Button>
  );
}

/** A value to publish, shown as code with its copy button. */
export function CopyValue({ value, label }: { value: string; label: string }) {
  return (
    <span className={styles.copyValue}>
      <code>{value}</code>
      <CopyButton text={value} label={label} />
    </span>
  );
}
