// The folder tree and labels: their data, order and routes, the tree itself, the create dialogs (lazy) and the
// drag format a folder accepts. Shell, mail, search and settings use them; nothing here knows about those.
import { withFeatureTexts } from '../../i18n';
export { folderKeys, folderQueries, useFolders, useLabels, type Label, type NewLabel } from './queries';
export {
  buildFolderSections,
  findInbox,
  flattenFolders,
  isMoveTarget,
  systemFolderOrder,
  type FolderNode,
  type FolderSections,
  type SystemFolderNames,
} from './folder-order';
export { folderPath, labelPath } from './paths';
export { folderLabel } from './folder-label';
export { FolderTree, type FolderTreeProps } from './folder-tree';
export { ItemMenu, itemMenuHost, type ManagedItem } from './item-menu';
export { writeDraggedMessages, type DraggedMessages } from './drag';
/** A menu's export items (mbox, zip), a chunk of their own: only menus that are open show them (DESIGN §5). */
export const loadExportMenuItems = withFeatureTexts(() => import('./export-menu-items'));

/** The create-folder and create-label dialogs, loaded when one is first opened (DESIGN §5), with their texts. */
export const loadCreateDialogs = withFeatureTexts(() => import('./create-dialogs'));
/** The folders and labels sections of settings (SPEC §2: folders, labels (create, edit/{id})), with their texts. */
export const loadFolderSettings = withFeatureTexts(() => import('./folder-settings'));
export const loadLabelSettings = withFeatureTexts(() => import('./label-settings'));
