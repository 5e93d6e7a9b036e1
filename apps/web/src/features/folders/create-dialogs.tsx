import { useState } from 'react';
import { useTranslation } from '../../i18n';
import {
  DEFAULT_LABEL_COLOR,
  DEFAULT_LABEL_SEARCH_FIELD,
  type Folder,
  type LabelSearchField,
} from '@mailroom/protocol';
import { FormDialog } from '../../ui/dialog';
import { Field } from '../../ui/field';
import { FolderFields, useFolderFields } from './folder-fields';
import { raiseSuccess } from '../../ui/notices-store';
import { useCreateFolder, useCreateLabel } from './mutations';
import { folderOptions, LabelSearchFields } from './label-fields';
import styles from './create-dialogs.module.css';
import fields from './label-fields.module.css';

export interface CreateDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  folders: readonly Folder[];
}

/** SPEC §2 folder creation dialog: a name and where it goes. The server checks names (SPEC §5). */
export function CreateFolderDialog({ open, onOpenChange, folders }: CreateDialogProps) {
  const { t } = useTranslation();
  const create = useCreateFolder();
  const { name, setName, parent, setError, fields } = useFolderFields('', '');
  const parents = folders.filter((folder) => folder.system === null || folder.system === 'inbox');

  function submit() {
    if (!name.trim()) {
      setError(t('folders.nameRequired'));
      return;
    }
    create.mutate(
      { name: name.trim(), parent_id: parent ? Number(parent) : null },
      {
        onSuccess: () => {
          raiseSuccess(t('folders.created'));
          setName('');
          onOpenChange(false);
        },
      },
    );
  }

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('folders.createTitle')}
      busy={create.isPending}
      onSubmit={submit}
    >
      <FolderFields {...fields} parents={folderOptions(parents, t)} />
    </FormDialog>
  );
}

/** SPEC §2 label creation dialog; SPEC §5: name and search query required, colour #e66465 and field body by default. */
export function CreateLabelDialog({ open, onOpenChange, folders }: CreateDialogProps) {
  const { t } = useTranslation();
  const create = useCreateLabel();
  const [name, setName] = useState('');
  const [color, setColor] = useState(DEFAULT_LABEL_COLOR);
  const [field, setField] = useState<LabelSearchField>(DEFAULT_LABEL_SEARCH_FIELD);
  const [content, setContent] = useState('');
  const [folder, setFolder] = useState('');
  const [errors, setErrors] = useState<{ name?: boolean; content?: boolean }>({});

  function submit() {
    const next = { name: !name.trim(), content: !content.trim() };
    setErrors(next);
    if (next.name || next.content) return;
    create.mutate(
      {
        name: name.trim(),
        color,
        search_field: field,
        search_content: content.trim(),
        ...(folder ? { folder_id: Number(folder) } : {}),
      },
      {
        onSuccess: () => {
          raiseSuccess(t('labels.created'));
          setName('');
          setContent('');
          onOpenChange(false);
        },
      },
    );
  }

  const required = t('labels.required');
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('labels.createTitle')}
      busy={create.isPending}
      onSubmit={submit}
    >
      <div className={styles.row}>
        <Field label={t('labels.name')} error={errors.name && required}>
          <input value={name} maxLength={100} autoFocus onChange={(event) => setName(event.target.value)} />
        </Field>
        <ColorField label={t('labels.color')} value={color} onChange={setColor} />
      </div>
      <LabelSearchFields
        field={field}
        onField={setField}
        content={content}
        onContent={setContent}
        contentError={errors.content && required}
        folder={folder}
        onFolder={setFolder}
        folders={folders}
      />
    </FormDialog>
  );
}

/**
 * A label's colour as the browser's colour picker chooses it: the create dialog's, and 'other colour' beside the
 * swatches of the colour dialog.
 */
export function ColorField({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange(color: string): void;
}) {
  return (
    <Field label={label} className={styles.colorField}>
      <input
        type="color"
        className={fields.colorInput}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </Field>
  );
}
