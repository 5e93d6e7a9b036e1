import { useId, useState } from 'react';
import { useTranslation } from '../../i18n';
import { raiseSuccess } from '../../ui/notices-store';
import { ColorField, FormDialog } from './create-dialogs';
import { LABEL_SWATCHES } from './label-colors';
import { useRenameFolder, useUpdateLabel } from './mutations';
import type { ManagedItem } from './item-menu';
import styles from './create-dialogs.module.css';

export interface ManageDialogProps {
  item: ManagedItem;
  /** Rename a folder or label, or choose a label's colour. */
  mode: 'rename' | 'color';
  onClose(): void;
}

/** The rename dialog of a folder or label, and the colour dialog of a label (sidebar menus). */
export default function ManageDialog({ item, mode, onClose }: ManageDialogProps) {
  return mode === 'rename' ? (
    <RenameDialog item={item} onClose={onClose} />
  ) : (
    <ColorDialog item={item} onClose={onClose} />
  );
}

function RenameDialog({ item, onClose }: { item: ManagedItem; onClose(): void }) {
  const { t } = useTranslation();
  const id = useId();
  const renameFolder = useRenameFolder();
  const updateLabel = useUpdateLabel();
  const [name, setName] = useState(item.name);
  const [error, setError] = useState(false);
  const busy = renameFolder.isPending || updateLabel.isPending;
  const folder = item.kind === 'folder';

  function submit() {
    const next = name.trim();
    if (!next) {
      setError(true);
      return;
    }
    if (next === item.name) {
      onClose();
      return;
    }
    const done = {
      onSuccess: () => {
        raiseSuccess(folder ? t('folders.renamed') : t('labels.renamed'));
        onClose();
      },
    };
    if (folder) renameFolder.mutate({ id: item.id, name: next }, done);
    else updateLabel.mutate({ id: item.id, label: { name: next } }, done);
  }

  return (
    <FormDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={folder ? t('folders.renameTitle') : t('labels.renameTitle')}
      busy={busy}
      onSubmit={submit}
      submitLabel={t('common.save')}
    >
      <div className={styles.field}>
        <label htmlFor={`${id}-name`}>{folder ? t('folders.name') : t('labels.name')}</label>
        <input
          id={`${id}-name`}
          value={name}
          maxLength={100}
          autoFocus
          aria-invalid={error}
          aria-describedby={error ? `${id}-name-error` : undefined}
          onFocus={(event) => event.target.select()}
          onChange={(event) => {
            setName(event.target.value);
            setError(false);
          }}
        />
        {error ? (
          <span id={`${id}-name-error`} className={styles.error}>
            {t('folders.nameRequired')}
          </span>
        ) : null}
      </div>
    </FormDialog>
  );
}

function ColorDialog({ item, onClose }: { item: ManagedItem; onClose(): void }) {
  const { t } = useTranslation();
  const id = useId();
  const update = useUpdateLabel();
  const [color, setColor] = useState(item.kind === 'label' ? item.color : LABEL_SWATCHES[0][1]);

  function submit() {
    update.mutate(
      { id: item.id, label: { color } },
      {
        onSuccess: () => {
          raiseSuccess(t('labels.recolored'));
          onClose();
        },
      },
    );
  }

  return (
    <FormDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('labels.recolorTitle', { name: item.name })}
      busy={update.isPending}
      onSubmit={submit}
      submitLabel={t('common.save')}
    >
      <fieldset className={styles.swatches}>
        <legend className="visually-hidden">{t('labels.color')}</legend>
        {LABEL_SWATCHES.map(([name, value]) => (
          <label key={value} className={styles.swatch} title={t(`labels.colors.${name}`)}>
            <input
              type="radio"
              name={`${id}-swatch`}
              value={value}
              checked={color.toLowerCase() === value}
              aria-label={t(`labels.colors.${name}`)}
              onChange={() => setColor(value)}
            />
            <span style={{ background: value }} aria-hidden />
          </label>
        ))}
      </fieldset>
      <ColorField id={`${id}-color`} label={t('labels.otherColor')} value={color} onChange={setColor} />
    </FormDialog>
  );
}
