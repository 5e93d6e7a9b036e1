import { folderDisplayName, type Folder } from '@mailroom/protocol';
import type { Translate } from '../../i18n';

/** A folder's name as the interface shows it: a system folder's in the user's language, else its last segment. */
export function folderLabel(folder: Pick<Folder, 'system' | 'name'>, t: Translate): string {
  return folder.system ? t(`folders.system.${folder.system}`) : folderDisplayName(folder.name);
}
