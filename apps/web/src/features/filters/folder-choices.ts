import type { Folder } from '@mailroom/protocol';
import { useFolders, useLabels, folderLabel } from '../folders';
import { useTranslation, type Translate } from '../../i18n';
import type { FolderChoice } from './rule-builder';

/**
 * Every folder in tree order, indented by depth, named as `fileinto` names it (its full name); Scheduled and Snoozed,
 * which only the server fills, are left out.
 */
export function folderChoices(
  folders: readonly Folder[],
  t: Translate,
  depth = 0,
): (FolderChoice & { id: number })[] {
  return folders
    .filter((folder) => folder.system !== 'scheduled' && folder.system !== 'snoozed')
    .flatMap((folder) => [
      { value: folder.name, label: `${'\u2003'.repeat(depth)}${folderLabel(folder, t)}`, id: folder.id },
      ...folderChoices(folder.subfolders, t, depth + 1),
    ]);
}

/** The account's folders and label names, for the builder's choices and the apply dialog. */
export function useFilterTargets(): { folders: (FolderChoice & { id: number })[]; labels: string[] } {
  const { t } = useTranslation();
  const folders = useFolders();
  const labels = useLabels();
  return {
    folders: folderChoices(folders.data ?? [], t),
    labels: (labels.data ?? []).map((label) => label.name),
  };
}
