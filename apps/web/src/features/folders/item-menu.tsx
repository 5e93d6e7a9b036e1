import { lazy, Suspense, useState } from 'react';
import clsx from 'clsx';
import { MoreHorizontal, Palette, Pencil, Trash2 } from 'lucide-react';
import { useTranslation } from '../../i18n';
import { raiseError } from '../../api/error-message';
import { useMatch, useNavigate } from '../../lib/router';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { Dropdown } from '../../ui/dropdown';
import { raiseSuccess } from '../../ui/notices-store';
import menu from '../../ui/menu.module.css';
import { findInbox } from './folder-order';
import { folderPath } from './paths';
import { useDeleteFolder, useDeleteLabel, useFolders } from './queries';
import styles from './item-menu.module.css';

// The rename and colour dialogs (Radix) load when first opened, not with the shell (DESIGN §5).
const ManageDialog = lazy(() => import('./manage-dialogs'));

/** The class of a row holding a link and its ItemMenu (the link first). */
export const itemMenuHost = styles.host;

/** A user folder or a label, as its sidebar menu manages it. */
export type ManagedItem =
  { kind: 'folder'; id: number; name: string } | { kind: 'label'; id: number; name: string; color: string };

export interface ItemMenuProps {
  item: ManagedItem;
  /** The tree's one tab stop is this row: its menu button is reachable by Tab too. */
  tabbable?: boolean;
  className?: string;
}

/**
 * The '…' menu beside a folder or label in the sidebar: rename, a label's colour, and delete after a confirmation.
 * Deleting the folder or label on screen goes to the Inbox.
 */
export function ItemMenu({ item, tabbable = true, className }: ItemMenuProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const folders = useFolders();
  const folderMatch = useMatch('/mail/folder/:a_id/:f_id/*?');
  const labelMatch = useMatch('/mail/label/:a_id/:l_id/*?');
  const deleteFolder = useDeleteFolder();
  const deleteLabel = useDeleteLabel();
  const [open, setOpen] = useState<'rename' | 'color' | 'delete' | null>(null);
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

  const actionsLabel = folder
    ? t('folders.actions', { name: item.name })
    : t('labels.actions', { name: item.name });
  return (
    <>
      <Dropdown
        align="end"
        trigger={
          <button
            type="button"
            className={clsx(styles.trigger, className)}
            aria-label={actionsLabel}
            title={actionsLabel}
            tabIndex={tabbable ? 0 : -1}
          >
            <MoreHorizontal aria-hidden />
          </button>
        }
        content={(Menu) => (
          <>
            <Menu.Item className={menu.item} onSelect={() => setOpen('rename')}>
              <Pencil aria-hidden />
              {t('folders.rename')}
            </Menu.Item>
            {folder ? null : (
              <Menu.Item className={menu.item} onSelect={() => setOpen('color')}>
                <Palette aria-hidden />
                {t('labels.recolor')}
              </Menu.Item>
            )}
            <Menu.Separator className={menu.separator} />
            <Menu.Item className={clsx(menu.item, styles.danger)} onSelect={() => setOpen('delete')}>
              <Trash2 aria-hidden />
              {t('folders.delete')}
            </Menu.Item>
          </>
        )}
      />
      {open === 'rename' || open === 'color' ? (
        <Suspense fallback={null}>
          <ManageDialog item={item} mode={open} onClose={() => setOpen(null)} />
        </Suspense>
      ) : null}
      <ConfirmDialog
        open={open === 'delete'}
        onOpenChange={(next) => !next && setOpen(null)}
        title={
          folder
            ? t('folders.deleteTitle', { name: item.name })
            : t('labels.deleteTitle', { name: item.name })
        }
        text={folder ? t('folders.deleteText') : t('labels.deleteText')}
        confirmLabel={t('folders.delete')}
        danger
        onConfirm={remove}
        onError={raiseError}
      />
    </>
  );
}
