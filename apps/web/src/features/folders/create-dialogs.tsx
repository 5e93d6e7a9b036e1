import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Dialog } from 'radix-ui';
import { useTranslation } from '../../i18n';
import {
  DEFAULT_LABEL_COLOR,
  DEFAULT_LABEL_SEARCH_FIELD,
  LABEL_SEARCH_FIELDS,
  type Folder,
  type LabelSearchField,
} from '@mailroom/protocol';
import { Button } from '../../ui/button';
import { dialogKeepsNotices, raiseSuccess } from '../../ui/notices-store';
import dialog from '../../ui/dialog.module.css';
import { useCreateFolder, useCreateLabel } from './mutations';
import { folderLabel } from './folder-label';
import styles from './create-dialogs.module.css';

export interface CreateDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  folders: readonly Folder[];
}

/** A small form in a dialog: its fields, Cancel, and the submit button (Create unless told). */
export function FormDialog({
  open,
  onOpenChange,
  title,
  busy,
  onSubmit,
  submitLabel,
  children,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: string;
  busy: boolean;
  onSubmit(): void;
  submitLabel?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  function submit(event: FormEvent) {
    event.preventDefault();
    onSubmit();
  }
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <Dialog.Portal>
        <Dialog.Overlay className={dialog.overlay} />
        <Dialog.Content className={dialog.content} aria-describedby={undefined} {...dialogKeepsNotices}>
          <form onSubmit={submit} aria-busy={busy}>
            <div className={dialog.header}>
              <Dialog.Title className={dialog.title}>{title}</Dialog.Title>
            </div>
            <div className={styles.fields}>{children}</div>
            <div className={dialog.actions}>
              <Dialog.Close asChild>
                <Button disabled={busy}>{t('common.cancel')}</Button>
              </Dialog.Close>
              <Button type="submit" variant="primary" disabled={busy}>
                {busy && <span className={dialog.spinner} aria-hidden />}
                {submitLabel ?? t('common.create')}
              </Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** SPEC §2 folder creation dialog: a name and where it goes. The server checks names (SPEC §5). */
export function CreateFolderDialog({ open, onOpenChange, folders }: CreateDialogProps) {
  const { t } = useTranslation();
  const id = useId();
  const create = useCreateFolder();
  const [name, setName] = useState('');
  const [parent, setParent] = useState('');
  const [error, setError] = useState<string | null>(null);
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
      <div className={styles.field}>
        <label htmlFor={`${id}-name`}>{t('folders.name')}</label>
        <input
          id={`${id}-name`}
          value={name}
          maxLength={100}
          autoFocus
          aria-invalid={error !== null}
          aria-describedby={error ? `${id}-name-error` : undefined}
          onChange={(event) => {
            setName(event.target.value);
            setError(null);
          }}
        />
        {error ? (
          <span id={`${id}-name-error`} className={styles.error}>
            {error}
          </span>
        ) : null}
      </div>
      <div className={styles.field}>
        <label htmlFor={`${id}-parent`}>{t('folders.parent')}</label>
        <select id={`${id}-parent`} value={parent} onChange={(event) => setParent(event.target.value)}>
          <option value="">{t('folders.noParent')}</option>
          {parents.map((folder) => (
            <option key={folder.id} value={folder.id}>
              {folderLabel(folder, t)}
            </option>
          ))}
        </select>
      </div>
    </FormDialog>
  );
}

/** SPEC §2 label creation dialog; SPEC §5: name and search query required, colour #e66465 and field body by default. */
export function CreateLabelDialog({ open, onOpenChange, folders }: CreateDialogProps) {
  const { t } = useTranslation();
  const id = useId();
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
        <div className={styles.field}>
          <label htmlFor={`${id}-name`}>{t('labels.name')}</label>
          <input
            id={`${id}-name`}
            value={name}
            maxLength={100}
            autoFocus
            aria-invalid={errors.name === true}
            aria-describedby={errors.name ? `${id}-name-error` : undefined}
            onChange={(event) => setName(event.target.value)}
          />
          {errors.name ? (
            <span id={`${id}-name-error`} className={styles.error}>
              {required}
            </span>
          ) : null}
        </div>
        <ColorField id={`${id}-color`} label={t('labels.color')} value={color} onChange={setColor} />
      </div>
      <div className={styles.field}>
        <label htmlFor={`${id}-field`}>{t('labels.searchField')}</label>
        <select
          id={`${id}-field`}
          value={field}
          onChange={(event) => setField(event.target.value as LabelSearchField)}
        >
          {LABEL_SEARCH_FIELDS.map((value) => (
            <option key={value} value={value}>
              {t(`labels.fields.${value}`)}
            </option>
          ))}
        </select>
      </div>
      <div className={styles.field}>
        <label htmlFor={`${id}-content`}>{t('labels.searchContent')}</label>
        <input
          id={`${id}-content`}
          value={content}
          maxLength={500}
          aria-invalid={errors.content === true}
          aria-describedby={errors.content ? `${id}-content-error` : undefined}
          onChange={(event) => setContent(event.target.value)}
        />
        {errors.content ? (
          <span id={`${id}-content-error`} className={styles.error}>
            {required}
          </span>
        ) : null}
      </div>
      <div className={styles.field}>
        <label htmlFor={`${id}-folder`}>{t('labels.folder')}</label>
        <select id={`${id}-folder`} value={folder} onChange={(event) => setFolder(event.target.value)}>
          <option value="">{t('labels.anyFolder')}</option>
          {folders.map((candidate) => (
            <option key={candidate.id} value={candidate.id}>
              {folderLabel(candidate, t)}
            </option>
          ))}
        </select>
      </div>
    </FormDialog>
  );
}

/**
 * A label's colour as the browser's colour picker chooses it: the create dialog's, and 'other colour' beside the
 * swatches of the colour dialog.
 */
export function ColorField({
  id,
  label,
  value,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  onChange(color: string): void;
}) {
  return (
    <label className={styles.colorField} htmlFor={id}>
      <span>{label}</span>
      <input id={id} type="color" value={value} onChange={(event) => onChange(event.target.value)} />
    </label>
  );
}
