import { lazy, Suspense } from 'react';
import type { Folder } from '@mailroom/protocol';
import clsx from 'clsx';
import { Palette, Pencil, Trash2 } from 'lucide-react';
import { useTranslation } from '../../i18n';
import { raiseError } from '../../api/error-message';
import { useMatch, useNavigate } from '../../lib/router';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import type { MenuKit } from '../../ui/dropdown';
import { raiseSuccess } from '../../ui/notices-store';
import menu from '../../ui/menu.module.css';
import ExportMenuItems from './export-menu-items';
import { findInbox } from './folder-order';
import type { ItemAction, ManagedItem } from './item-menu';
import { folderPath } from './paths';
import { useDeleteFolder, useDeleteLabel } from './mutations';
import { useFolders } from './queries';
import styles from './item-menu.module.css';

// The rename and colour dialogs (Radix) load when first opened.
const ManageDialog = lazy(() => import('./manage-dialogs'));

/** The open '…' menu of a folder or label: rename, a label's colour, export, delete (a system folder: export). */
export function ItemMenuItems({
  Menu,
  item,
  onChoose,
}: {
  Menu: MenuKit;
  item: ManagedItem;
  onChoose(action: ItemAction): void;
}) {
  const { t } = useTranslation();
  const exported = <ExportMenuItems Menu={Menu} subject={{ kind: item.kind, id: item.id }} />;
  if (item.kind === 'folder' && item.system) return exported;
  return (
    <>
      <Menu.Item className={menu.item} onSelect={() => onChoose('rename')}>
        <Pencil aria-hidden />
        {t('folders.rename')}
      </Menu.Item>
      {item.kind === 'folder' ? null : (
        <Menu.Item className={menu.item} onSelect={() => onChoose('color')}>
          <Palette aria-hidden />
          {t('labels.recolor')}
        </Menu.Item>
      )}
      <Menu.Separator className={menu.separator} />
      {exported}
      <Menu.Separator className={menu.separator} />
      <Menu.Item className={clsx(menu.item, styles.danger)} onSelect={() => onChoose('delete')}>
        <Trash2 aria-hidden />
        {t('folders.delete')}
      </Menu.Item>
    </>
  );
}

/** Whether the folder `id`, anywhere in the tree, has subfolders. */
function hasSubfolders(folders: readonly Folder[], id: number): boolean {
  const walk = (list: readonly Folder[]): Folder | undefined => {
    for (const folder of list) {
      const found = folder.id === id ? folder : walk(folder.subfolders);
      if (found) return found;
    }
    return undefined;
  };
  return (walk(folders)?.subfolders.length ?? 0) > 0;
}

/**
 * What a menu item opens: the rename or colour dialog, or the confirmation before a delete. Deleting the folder or
 * label on screen goes to the Inbox.
 */
export function ItemDialogs({
  item,
  action,
  onClose,
}: {
  item: ManagedItem;
  action: ItemAction;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const folders = useFolders();
  const folderMatch = useMatch('/mail/folder/:a_id/:f_id/*?');
  const labelMatch = useMatch('/mail/label/:a_id/:l_id/*?');
  const deleteFolder = useDeleteFolder();
  const deleteLabel = useDeleteLabel();
  const folder = item.kind === 'folder';
  const shown = folder
    ? folderMatch !== null && Number(folderMatch.f_id) === item.id
    : labelMatch !== null && Number(labelMatch.l_id) === item.id;

  async function remove() {
    if (folder) await deleteFolder.mutateAsync(item.id);
    else await deleteLabel.mutateAsync(item.id);
    raiseSuccess(folder ? t('folders.deleted') : t('labels.deleted'));
    const inbox = findInbox(folders.data ?? []);
    if (shown && inbox) navigate(folderPath((folderMatch ?? labelMatch)?.a_id ?? 'all', inbox.id));
  }

  if (action === 'delete' && folder && hasSubfolders(folders.data ?? [], item.id)) {
    // A folder with subfolders cannot be deleted (folder_children_exist): said before anything is asked.
    return (
      <ConfirmDialog
        open
        onOpenChange={(next) => !next && onClose()}
        title={t('folderSettings.subfoldersTitle', { name: item.name })}
        text={t('folderSettings.subfoldersText')}
        confirmLabel={t('common.close')}
        acknowledgeOnly
        onConfirm={onClose}
        onError={onClose}
      />
    );
  }
  if (action !== 'delete') {
    return (
      <Suspense fallback={null}>
        <ManageDialog item={item} mode={action} onClose={onClose} />
      </Suspense>
    );
  }
  return (
    <ConfirmDialog
      open
      onOpenChange={(next) => !next && onClose()}
      title={
        folder ? t('folders.deleteTitle', { name: item.name }) : t('labels.deleteTitle', { name: item.name })
      }
      text={folder ? t('folders.deleteText') : t('labels.deleteText')}
      confirmLabel={t('folders.delete')}
      danger
      onConfirm={remove}
      onError={raiseError}
    />
  );
}
