import { useState } from 'react';
import { useTranslation } from '../../i18n';
import { FormDialog } from '../../ui/dialog';
import { Field } from '../../ui/field';
import { raiseSuccess } from '../../ui/notices-store';
import { ColorField } from './create-dialogs';
import { LABEL_SWATCHES } from './label-colors';
import { LabelSwatches } from './label-fields';
import { useRenameFolder, useUpdateLabel } from './mutations';
import type { ManagedItem } from './item-menu';

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
      <Field label={folder ? t('folders.name') : t('labels.name')} error={error && t('folders.nameRequired')}>
        <input
          value={name}
          maxLength={100}
          autoFocus
          onFocus={(event) => event.target.select()}
          onChange={(event) => {
            setName(event.target.value);
            setError(false);
          }}
        />
      </Field>
    </FormDialog>
  );
}

function ColorDialog({ item, onClose }: { item: ManagedItem; onClose(): void }) {
  const { t } = useTranslation();
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
      <LabelSwatches color={color} onChange={setColor} label={t('labels.color')} legend />
      <ColorField label={t('labels.otherColor')} value={color} onChange={setColor} />
    </FormDialog>
  );
}
