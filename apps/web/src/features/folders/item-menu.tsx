import { useState } from 'react';
import clsx from 'clsx';
import { MoreHorizontal } from 'lucide-react';
import { useTranslation, withFeatureTexts } from '../../i18n';
import { Dropdown } from '../../ui/dropdown';
import { LazyPart, lazyChunk } from '../../ui/lazy-route';
import styles from './item-menu.module.css';

// The menu's items and what they open (dialogs, the delete) load with the menu and their texts, not with the shell
// (DESIGN §5).
const loadActions = withFeatureTexts(() => import('./item-actions'));
const ItemMenuItems = lazyChunk(() => loadActions().then((module) => ({ default: module.ItemMenuItems })));
const ItemDialogs = lazyChunk(() => loadActions().then((module) => ({ default: module.ItemDialogs })));

/** The class of a row holding a link and its ItemMenu (the link first). */
export const itemMenuHost = styles.host;

/** A user folder or a label, as its sidebar menu manages it. */
export type ManagedItem =
  | {
      kind: 'folder';
      id: number;
      name: string;
      /** Inbox, Sent…: exported, never renamed or deleted. */ system?: boolean;
    }
  | { kind: 'label'; id: number; name: string; color: string };

/** What the menu's items open. */
export type ItemAction = 'rename' | 'color' | 'delete';

export interface ItemMenuProps {
  item: ManagedItem;
  /** The tree's one tab stop is this row: its menu button is reachable by Tab too. */
  tabbable?: boolean;
  className?: string;
}

/**
 * The '…' menu beside a folder or label in the sidebar: rename, a label's colour, export (mbox or zip), and delete
 * after a confirmation; a system folder's has the export only.
 */
export function ItemMenu({ item, tabbable = true, className }: ItemMenuProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<ItemAction | null>(null);
  const actionsLabel =
    item.kind === 'folder'
      ? t('folders.actions', { name: item.name })
      : t('labels.actions', { name: item.name });
  return (
    <>
      <Dropdown
        align="end"
        prefetch={loadActions}
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
        content={(Menu) => <ItemMenuItems Menu={Menu} item={item} onChoose={setOpen} />}
      />
      {open === null ? null : (
        <LazyPart variant="notice" onFailed={() => setOpen(null)}>
          <ItemDialogs item={item} action={open} onClose={() => setOpen(null)} />
        </LazyPart>
      )}
    </>
  );
}
