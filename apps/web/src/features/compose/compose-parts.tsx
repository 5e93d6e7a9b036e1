import { useState } from 'react';
import { Maximize2, Minimize2, Minus, X } from 'lucide-react';
import type { RecipientFieldName } from '@mailroom/protocol';
import { useTranslation } from '../../i18n';
import { IconButton } from '../../ui/icon-button';
import { TagInput } from '../../ui/tag-input';
import { useUser } from '../account';
import { mergeTags, splitRecipients, type RecipientTag } from './addresses';
import { suggestionItem, suggestionTags, useRecipientSuggestions } from './recipient-suggestions';
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
      <IconButton
        label={collapsed ? t('compose.expand') : t('compose.collapse')}
        onClick={() => onCollapsed(!collapsed)}
      >
        <Minus aria-hidden />
      </IconButton>
      <IconButton
        label={fullscreen ? t('compose.exitFullscreen') : t('compose.fullscreen')}
        onClick={() => {
          onFullscreen(!fullscreen);
          onCollapsed(false);
        }}
      >
        {fullscreen ? <Minimize2 aria-hidden /> : <Maximize2 aria-hidden />}
      </IconButton>
      <IconButton label={t('compose.close')} onClick={onClose}>
        <X aria-hidden />
      </IconButton>
    </header>
  );
}

/**
 * To, and Cc, Bcc and Reply-To once asked for (or already filled), as tag inputs (SPEC §5), each suggesting
 * contacts, groups and correspondents as the user types (not for alias-only users, SPEC §6).
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
  const suggest = !useUser()?.info.alias;
  const [extraFields, setExtraFields] = useState<RecipientFieldName[]>(() =>
    (['cc', 'bcc', 'reply-to'] as const).filter((field) => recipients[field].length > 0),
  );
  return (['to', ...extraFields] as RecipientFieldName[]).map((field) => (
    <div key={field} className={styles.recipientRow}>
      <RecipientField
        label={t(fieldLabelKeys[field])}
        tags={recipients[field]}
        suggest={suggest && field !== 'reply-to'}
        autoFocus={field === 'to' && autoFocus}
        onChange={(tags) => onChange(field, tags)}
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

/** One recipient field with its autocomplete: a contact picked becomes its tag, a group all its members'. */
function RecipientField({
  label,
  tags,
  suggest,
  autoFocus,
  onChange,
}: {
  label: string;
  tags: RecipientTag[];
  suggest: boolean;
  autoFocus: boolean;
  onChange(tags: RecipientTag[]): void;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const suggestions = useRecipientSuggestions(text, suggest);
  const texts = {
    group: (count: number) => t('contacts.suggestGroup', { count }),
    recent: t('contacts.suggestRecent'),
  };
  return (
    <TagInput
      label={label}
      tags={tags.map((tag) => ({
        text: tag.name || tag.email,
        title: tag.email,
        invalid: !tag.valid,
      }))}
      autoFocus={autoFocus}
      onCommit={(typed) => onChange(mergeTags(tags, splitRecipients(typed)))}
      onRemove={(index) => onChange(tags.filter((_, position) => position !== index))}
      onTextChange={suggest ? setText : undefined}
      suggestions={suggestions.map((suggestion, index) => suggestionItem(suggestion, index, texts))}
      suggestionsLabel={t('contacts.suggestions')}
      onPick={(picked) => {
        const suggestion = suggestions[Number(picked.key.split(':')[0])];
        if (suggestion) onChange(mergeTags(tags, suggestionTags(suggestion)));
      }}
    />
  );
}
