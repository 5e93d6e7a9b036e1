import { useState } from 'react';
import { Maximize2, Minimize2, Minus, X } from 'lucide-react';
import type { RecipientFieldName } from '@mailroom/protocol';
import { useTranslation } from '../../i18n';
import { Button } from '../../ui/button';
import { TagInput } from '../../ui/tag-input';
import { mergeTags, splitRecipients, type RecipientTag } from './addresses';
import type { RecipientFields } from './compose-request';
import { fieldLabelKeys } from './send-errors';
import styles from './compose.module.css';

export interface WindowControls {
  title: string;
  collapsed: boolean;
  fullscreen: boolean;
  onCollapsed(collapsed: boolean): void;
  onFullscreen(fullscreen: boolean): void;
  onClose(): void;
}

/** The window's title bar: the title (a click folds the window), collapse, fullscreen and close. */
export function ComposeHeader({
  title,
  collapsed,
  fullscreen,
  onCollapsed,
  onFullscreen,
  onClose,
}: WindowControls) {
  const { t } = useTranslation();
  return (
    <header className={styles.header}>
      <button type="button" className={styles.title} onClick={() => onCollapsed(!collapsed)}>
        {title}
      </button>
      <Button
        variant="ghost"
        iconOnly
        aria-label={collapsed ? t('compose.expand') : t('compose.collapse')}
        title={collapsed ? t('compose.expand') : t('compose.collapse')}
        onClick={() => onCollapsed(!collapsed)}
      >
        <Minus aria-hidden />
      </Button>
      <Button
        variant="ghost"
        iconOnly
        aria-label={fullscreen ? t('compose.exitFullscreen') : t('compose.fullscreen')}
        title={fullscreen ? t('compose.exitFullscreen') : t('compose.fullscreen')}
        onClick={() => {
          onFullscreen(!fullscreen);
          onCollapsed(false);
        }}
      >
        {fullscreen ? <Minimize2 aria-hidden /> : <Maximize2 aria-hidden />}
      </Button>
      <Button
        variant="ghost"
        iconOnly
        aria-label={t('compose.close')}
        title={t('compose.close')}
        onClick={onClose}
      >
        <X aria-hidden />
      </Button>
    </header>
  );
}

/**
 * To, and Cc, Bcc and Reply-To once asked for (or already filled), as tag inputs (SPEC §5). Contacts do not exist
 * yet: when they do, TagInput's `suggest` is where their autocomplete plugs in (not for alias-only users, SPEC §6).
 */
export function RecipientInputs({
  recipients,
  autoFocus,
  onChange,
}: {
  recipients: RecipientFields;
  autoFocus: boolean;
  onChange(field: RecipientFieldName, tags: RecipientTag[]): void;
}) {
  const { t } = useTranslation();
  const [extraFields, setExtraFields] = useState<RecipientFieldName[]>(() =>
    (['cc', 'bcc', 'reply-to'] as const).filter((field) => recipients[field].length > 0),
  );
  return (['to', ...extraFields] as RecipientFieldName[]).map((field) => (
    <div key={field} className={styles.recipientRow}>
      <TagInput
        label={t(fieldLabelKeys[field])}
        tags={recipients[field].map((tag) => ({
          text: tag.name || tag.email,
          title: tag.email,
          invalid: !tag.valid,
        }))}
        autoFocus={field === 'to' && autoFocus}
        onCommit={(text) => onChange(field, mergeTags(recipients[field], splitRecipients(text)))}
        onRemove={(index) =>
          onChange(
            field,
            recipients[field].filter((_, position) => position !== index),
          )
        }
      />
      {field === 'to' ? (
        <div className={styles.extraToggles}>
          {(['cc', 'bcc', 'reply-to'] as const)
            .filter((extra) => !extraFields.includes(extra))
            .map((extra) => (
              <button
                key={extra}
                type="button"
                className={styles.extraToggle}
                onClick={() => setExtraFields([...extraFields, extra])}
              >
                {t(fieldLabelKeys[extra])}
              </button>
            ))}
        </div>
      ) : null}
    </div>
  ));
}
