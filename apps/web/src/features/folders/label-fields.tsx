import { useId, type ReactNode } from 'react';
import { LABEL_SEARCH_FIELDS, type Folder, type LabelSearchField } from '@mailroom/protocol';
import { useTranslation, type Translate } from '../../i18n';
import { Field } from '../../ui/field';
import { NativeSelect, type NativeSelectOption } from '../../ui/select';
import { LABEL_SWATCHES } from './label-colors';
import { folderLabel } from './folder-label';
import styles from './label-fields.module.css';

/** The label colours of SPEC §5 as radio buttons, each a round swatch named by its colour. */
export function LabelSwatches({
  color,
  onChange,
  label,
  legend,
}: {
  color: string;
  onChange(color: string): void;
  /** The group's name: a fieldset legend when `legend`, else the radiogroup's aria-label. */
  label: string;
  legend?: boolean;
}) {
  const { t } = useTranslation();
  const name = useId();
  const swatches = LABEL_SWATCHES.map(([colourName, value]) => (
    <label key={value} className={styles.swatch} title={t(`labels.colors.${colourName}`)}>
      <input
        type="radio"
        name={`${name}-swatch`}
        value={value}
        checked={color.toLowerCase() === value}
        aria-label={t(`labels.colors.${colourName}`)}
        onChange={() => onChange(value)}
      />
      <span style={{ background: value }} aria-hidden />
    </label>
  ));
  return legend ? (
    <fieldset className={styles.swatches}>
      <legend className="visually-hidden">{label}</legend>
      {swatches}
    </fieldset>
  ) : (
    <div className={styles.swatches} role="radiogroup" aria-label={label}>
      {swatches}
    </div>
  );
}

/** The fields a label searches (SPEC §5), as select options. */
export function labelSearchFieldOptions(t: Translate): NativeSelectOption[] {
  return LABEL_SEARCH_FIELDS.map((value) => ({ value, label: t(`labels.fields.${value}`) }));
}

/** Folders as select options, by their shown names. */
export function folderOptions(folders: readonly Folder[], t: Translate): NativeSelectOption[] {
  return folders.map((folder) => ({ value: folder.id, label: folderLabel(folder, t) }));
}

/**
 * What a label searches for (SPEC §5): the field, the words (required: `contentError` refuses them) and the folder
 * it looks in; the create dialog's and the settings page's.
 */
export function LabelSearchFields({
  field,
  onField,
  content,
  onContent,
  contentError,
  folder,
  onFolder,
  folders,
}: {
  field: LabelSearchField;
  onField(field: LabelSearchField): void;
  content: string;
  onContent(content: string): void;
  contentError: ReactNode;
  folder: string;
  onFolder(folder: string): void;
  folders: readonly Folder[];
}) {
  const { t } = useTranslation();
  return (
    <>
      <Field label={t('labels.searchField')}>
        <NativeSelect
          value={field}
          options={labelSearchFieldOptions(t)}
          onChange={(value) => onField(value as LabelSearchField)}
        />
      </Field>
      <Field label={t('labels.searchContent')} error={contentError}>
        <input value={content} maxLength={500} onChange={(event) => onContent(event.target.value)} />
      </Field>
      <Field label={t('labels.folder')}>
        <NativeSelect
          value={folder}
          empty={t('labels.anyFolder')}
          options={folderOptions(folders, t)}
          onChange={onFolder}
        />
      </Field>
    </>
  );
}
