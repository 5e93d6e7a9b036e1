import { useState, type ReactNode } from 'react';
import { useTranslation } from '../../i18n';
import { Field } from '../../ui/field';
import { NativeSelect, type NativeSelectOption } from '../../ui/select';

/** A folder's name (focused first, its refusal under it) and its parent: the create dialog's and the settings page's. */
export function FolderFields({
  name,
  onName,
  error,
  parent,
  onParent,
  parents,
}: {
  name: string;
  onName(name: string): void;
  error: ReactNode;
  parent: string;
  onParent(parent: string): void;
  /** The folders it may go under, as options. */
  parents: NativeSelectOption[];
}) {
  const { t } = useTranslation();
  return (
    <>
      <Field label={t('folders.name')} error={error}>
        <input value={name} maxLength={100} autoFocus onChange={(event) => onName(event.target.value)} />
      </Field>
      <Field label={t('folders.parent')}>
        <NativeSelect value={parent} empty={t('folders.noParent')} options={parents} onChange={onParent} />
      </Field>
    </>
  );
}

/**
 * The state of FolderFields: the name (typing clears its refusal), the parent (an id, '' for the top) and the refusal;
 * `fields` spreads into FolderFields.
 */
export function useFolderFields(initialName: string, initialParent: string) {
  const [name, setName] = useState(initialName);
  const [parent, setParent] = useState(initialParent);
  const [error, setError] = useState<string | null>(null);
  const onName = (value: string) => {
    setName(value);
    setError(null);
  };
  return { name, setName, parent, setError, fields: { name, onName, error, parent, onParent: setParent } };
}
