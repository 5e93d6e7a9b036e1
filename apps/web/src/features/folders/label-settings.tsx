import { useEffect, useState, type FormEvent } from 'react';
import { Pencil, Tag, Tags, Trash2 } from 'lucide-react';
import {
  DEFAULT_LABEL_COLOR,
  DEFAULT_LABEL_SEARCH_FIELD,
  type Folder,
  type Label,
  type LabelSearchField,
} from '@mailroom/protocol';
import { loadErrorTexts, translateErrorCode, useTranslation } from '../../i18n';
import { Link, useNavigate } from '../../lib/router';
import { Button, buttonClass } from '../../ui/button';
import { IconButton, IconLink } from '../../ui/icon-button';
import { ConfirmItem } from '../../ui/confirm-dialog';
import { raiseSuccess } from '../../ui/notices-store';
import page from '../../ui/settings-page.module.css';
import { Field } from '../../ui/field';
import { LabelSearchFields, LabelSwatches } from './label-fields';
import { SettingsPage } from '../../ui/settings-editor-header';
import { flattenFolders } from './folder-order';
import { folderLabel } from './folder-label';
import { LABEL_SWATCHES } from './label-colors';
import { useCreateLabel, useDeleteLabel, useUpdateLabel } from './mutations';
import { useFolders, useLabels } from './queries';
import styles from './settings-screens.module.css';
import { SettingsList, SettingsSkeleton, SettingsState } from '../../ui/settings-list';
import { FormActions } from '../../ui/form-parts';
import fields from './label-fields.module.css';

export const labelsSettingsPath = '/settings/labels';
const editLabelPath = (id: number) => `${labelsSettingsPath}/edit/${id}`;

/** settings/labels, create and edit/{id} (SPEC §2): the labels with their saved searches, and a label's form. */
export default function LabelSettings({ action, id }: { action?: 'create' | 'edit'; id?: string }) {
  const { t } = useTranslation();
  const labels = useLabels();
  const folders = useFolders();
  useEffect(() => {
    void loadErrorTexts();
  }, []);
  if (labels.isError && !labels.data)
    return (
      <section className={page.page}>
        <SettingsState role="alert">
          <Tags aria-hidden />
          <p>{t('labels.loadFailed')}</p>
          <Button onClick={() => void labels.refetch()}>{t('common.refresh')}</Button>
        </SettingsState>
      </section>
    );
  if (!labels.data || !folders.data)
    return (
      <section className={page.page} aria-busy="true">
        <SettingsSkeleton rows={4} />
      </section>
    );
  const allFolders = flattenFolders(folders.data);
  if (action === 'create') return <LabelForm label={null} labels={labels.data} folders={allFolders} />;
  if (action === 'edit') {
    const label = labels.data.find((candidate) => String(candidate.id) === id);
    if (!label)
      return (
        <section className={page.page}>
          <SettingsState role="alert">
            <Tags aria-hidden />
            <p>{t('labelSettings.notFound')}</p>
            <Link to={labelsSettingsPath} className={buttonClass()}>
              {t('labelSettings.backToList')}
            </Link>
          </SettingsState>
        </section>
      );
    return <LabelForm key={label.id} label={label} labels={labels.data} folders={allFolders} />;
  }
  return <LabelList labels={labels.data} folders={allFolders} />;
}

function LabelList({ labels, folders }: { labels: readonly Label[]; folders: readonly Folder[] }) {
  const { t } = useTranslation();
  const remove = useDeleteLabel();
  const [removing, setRemoving] = useState<Label | null>(null);
  const folderName = (folderId: number | null) => {
    const folder = folderId === null ? undefined : folders.find((candidate) => candidate.id === folderId);
    return folder ? folderLabel(folder, t) : t('labels.anyFolder');
  };

  return (
    <SettingsPage
      title={t('labelSettings.title')}
      create={{ to: `${labelsSettingsPath}/create`, label: t('labels.create') }}
    >
      <p className={page.hint}>{t('labelSettings.intro')}</p>

      {labels.length === 0 ? (
        <SettingsState>
          <Tag aria-hidden />
          <p>{t('labelSettings.empty')}</p>
        </SettingsState>
      ) : (
        <SettingsList aria-label={t('labelSettings.listLabel')}>
          {labels.map((label) => (
            <li key={label.id} className={page.item} aria-label={label.name}>
              <span className={styles.dot} style={{ background: label.color }} aria-hidden />
              <span className={page.itemMain}>
                <Link to={editLabelPath(label.id)} className={page.itemName}>
                  {label.name}
                </Link>
                <span className={page.itemSub}>
                  {t('labelSettings.searchSummary', {
                    field: t(`labels.fields.${label.search_field}`),
                    query: label.search_content,
                    folder: folderName(label.folder_id),
                  })}
                </span>
              </span>
              <span className={page.itemActions}>
                <IconLink
                  to={editLabelPath(label.id)}
                  label={t('labelSettings.editFor', { name: label.name })}
                  tooltip={t('labelSettings.edit')}
                >
                  <Pencil aria-hidden />
                </IconLink>
                <IconButton
                  label={t('labelSettings.deleteFor', { name: label.name })}
                  tooltip={t('folders.delete')}
                  onClick={() => setRemoving(label)}
                >
                  <Trash2 aria-hidden />
                </IconButton>
              </span>
            </li>
          ))}
        </SettingsList>
      )}

      <ConfirmItem
        item={removing}
        onClose={() => setRemoving(null)}
        title={t('labels.deleteTitle', { name: removing?.name ?? '' })}
        text={t('labels.deleteText')}
        confirmLabel={t('folders.delete')}
        danger
        onConfirm={async (label) => {
          await remove.mutateAsync(label.id);
          raiseSuccess(t('labels.deleted'));
        }}
        onError={() => setRemoving(null)}
      />
    </SettingsPage>
  );
}

function LabelForm({
  label,
  labels,
  folders,
}: {
  label: Label | null;
  labels: readonly Label[];
  folders: readonly Folder[];
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateLabel();
  const update = useUpdateLabel();
  const [name, setName] = useState(label?.name ?? '');
  const [color, setColor] = useState(label?.color ?? DEFAULT_LABEL_COLOR);
  const [field, setField] = useState<LabelSearchField>(label?.search_field ?? DEFAULT_LABEL_SEARCH_FIELD);
  const [content, setContent] = useState(label?.search_content ?? '');
  const [folder, setFolder] = useState(label?.folder_id ? String(label.folder_id) : '');
  const [errors, setErrors] = useState<{ name?: string; content?: string }>({});
  const busy = create.isPending || update.isPending;

  function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = name.trim();
    const taken = labels.some(
      (other) => other.id !== label?.id && other.name.toLowerCase() === trimmed.toLowerCase(),
    );
    const next = {
      name: !trimmed
        ? (translateErrorCode('name_not_indicated') ?? t('folders.nameRequired'))
        : taken
          ? (translateErrorCode('label_already_exist') ?? t('labelSettings.taken'))
          : undefined,
      content: content.trim()
        ? undefined
        : (translateErrorCode('search_content_not_indicated') ?? t('labels.required')),
    };
    setErrors(next);
    if (next.name || next.content) return;
    const values = {
      name: trimmed,
      color,
      search_field: field,
      search_content: content.trim(),
      folder_id: folder ? Number(folder) : null,
    };
    const done = {
      onSuccess: () => {
        raiseSuccess(label ? t('labelSettings.saved') : t('labels.created'));
        navigate(labelsSettingsPath);
      },
    };
    if (label) update.mutate({ id: label.id, label: values }, done);
    else create.mutate(values, done);
  }

  const title = label ? t('labelSettings.editTitle', { name: label.name }) : t('labels.createTitle');
  const swatch = LABEL_SWATCHES.some(([, value]) => value === color.toLowerCase());
  return (
    <SettingsPage title={title} back={{ to: labelsSettingsPath, label: t('labelSettings.backToList') }}>
      <form className={page.form} onSubmit={submit} noValidate aria-busy={busy}>
        <Field label={t('labels.name')} error={errors.name}>
          <input
            value={name}
            maxLength={100}
            autoFocus
            onChange={(event) => {
              setName(event.target.value);
              setErrors({ ...errors, name: undefined });
            }}
          />
        </Field>

        <fieldset className={page.group}>
          <legend className={page.groupTitle}>{t('labels.color')}</legend>
          <div className={styles.colours}>
            <LabelSwatches color={color} onChange={setColor} label={t('labelSettings.palette')} />
            <label className={styles.custom}>
              <input
                type="color"
                className={fields.colorInput}
                value={color}
                aria-label={t('labels.otherColor')}
                onChange={(event) => setColor(event.target.value)}
              />
              {swatch ? t('labels.otherColor') : t('labelSettings.customColour', { colour: color })}
            </label>
          </div>
        </fieldset>

        <fieldset className={page.group}>
          <legend className={page.groupTitle}>{t('labelSettings.search')}</legend>
          <p className={page.hint}>{t('labelSettings.searchHint')}</p>
          <div className={styles.searchRow}>
            <LabelSearchFields
              field={field}
              onField={setField}
              content={content}
              onContent={(value) => {
                setContent(value);
                setErrors({ ...errors, content: undefined });
              }}
              contentError={errors.content}
              folder={folder}
              onFolder={setFolder}
              folders={folders}
            />
          </div>
        </fieldset>

        <FormActions>
          <Link to={labelsSettingsPath} className={buttonClass()}>
            {t('common.cancel')}
          </Link>
          <Button type="submit" variant="primary" disabled={busy}>
            {label ? t('common.save') : t('common.create')}
          </Button>
        </FormActions>
      </form>
    </SettingsPage>
  );
}
