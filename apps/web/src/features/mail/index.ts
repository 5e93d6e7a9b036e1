// The mail screens (folder, label, search lists with the reader), their queries and what the app wires in: the live
// events of the lists and the drop of rows on a folder of the sidebar.
export { FolderView, LabelView, MailIndex, SearchView } from './mail-views';
export { lockedAliasId } from './locked-alias';
export { mailKeys, mailQueries } from './queries';
export { listOrder, type ListSource } from './list-model';
export { useDropOnFolder } from './use-drop-on-folder';
