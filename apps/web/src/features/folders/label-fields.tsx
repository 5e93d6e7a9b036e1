import { useId } from 'react';
import { LABEL_SEARCH_FIELDS, type Folder } from '@mailroom/protocol';
import { useTranslation, type Translate } from '../../i18n';
import type { NativeSelectOption } from '../../ui/select';
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
