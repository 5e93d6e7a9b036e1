import { Check, Copy } from 'lucide-react';
import { useTranslation } from '../../i18n';
import { Button } from '../../ui/button';
import { useCopy } from '../../ui/copy-text';
import styles from './domains.module.css';

/** Copies `text` (a record's name or value, a zone snippet) and says 'Copied' for a moment. */
export function CopyButton({ text, label, visible }: { text: string; label: string; visible?: string }) {
  const { t } = useTranslation();
  const { copied, copy } = useCopy();
  return (
    <Button
      variant="ghost"
      iconOnly={!visible}
      aria-label={label}
      title={copied ? t('domains.copied') : t('domains.copy')}
      onClick={() => void copy(text)}
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
