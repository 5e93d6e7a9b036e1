import { useState, type DragEvent, type KeyboardEvent, type MouseEvent } from 'react';
import { useTranslation } from '../../i18n';
import clsx from 'clsx';
import {
  AlarmClock,
  CalendarClock,
  ChevronRight,
  File,
  Folder,
  FolderDown,
  Inbox,
  Send,
  ShieldAlert,
  Trash2,
} from 'lucide-react';
import type { FolderSystem } from '@mailroom/protocol';
import { folderPath } from './paths';
import { Link } from '../../lib/router';
import { isMoveTarget, type FolderNode } from './folder-order';
import { isMessageDrag, readDraggedMessages, type DraggedMessages } from './drag';
import { ItemMenu, itemMenuHost } from './item-menu';
import styles from './folder-tree.module.css';

const systemIcons: Record<FolderSystem, typeof Inbox> = {
  inbox: Inbox,
  sent: Send,
  draft: File,
  scheduled: CalendarClock,
  snoozed: AlarmClock,
  trash: Trash2,
  junk: ShieldAlert,
};

export interface FolderTreeProps {
  nodes: FolderNode[];
  label: string;
  aliasId: string;
  activeFolderId: number | null;
  collector?: boolean;
  /** User folders get a menu to rename and delete them (not for alias-only users, SPEC §6). */
  manage?: boolean;
  /**
   * Messages dragged from the list were dropped on a folder (SPEC §2 drag-and-drop onto the folder tree). The tree
   * only reads the drag; what a drop does is the mail screen's (the app passes mail's handler in).
   */
  onDropMessages?(folderId: number, dragged: DraggedMessages): void;
}

/** A WAI-ARIA tree: one tab stop, arrows move, Right/Left expand and collapse, Enter opens the folder. */
export function FolderTree({
  nodes,
  label,
  aliasId,
  activeFolderId,
  collector = false,
  manage = false,
  onDropMessages,
}: FolderTreeProps) {
  const [collapsed, setCollapsed] = useState<ReadonlySet<number>>(() => new Set());
  const [focusedId, setFocusedId] = useState<number | null>(null);
  const ids = nodes.map((node) => node.folder.id);
  const tabStop =
    focusedId !== null && containsId(nodes, focusedId)
      ? focusedId
      : activeFolderId !== null && containsId(nodes, activeFolderId)
        ? activeFolderId
        : (ids[0] ?? null);

  function toggle(id: number, expand?: boolean) {
    setCollapsed((current) => {
      const next = new Set(current);
      const shouldExpand = expand ?? next.has(id);
      if (shouldExpand) next.delete(id);
      else next.add(id);
      return next;
    });
  }

  const tree: TreeShared = {
    aliasId,
    activeFolderId,
    tabStop,
    collapsed,
    collector,
    manage,
    onToggle: toggle,
    onFocusItem: setFocusedId,
    onDropMessages,
  };

  function onKeyDown(event: KeyboardEvent<HTMLUListElement>) {
    const items = Array.from(event.currentTarget.querySelectorAll<HTMLElement>('[role="treeitem"]'));
    const index = items.indexOf(event.target as HTMLElement);
    if (index < 0) return;
    const item = items[index]!;
    const id = Number(item.dataset.folderId);
    const expanded = item.getAttribute('aria-expanded');
    let target: HTMLElement | undefined;
    switch (event.key) {
      case 'ArrowDown':
        target = items[index + 1];
        break;
      case 'ArrowUp':
        target = items[index - 1];
        break;
      case 'Home':
        target = items[0];
        break;
      case 'End':
        target = items[items.length - 1];
        break;
      case 'ArrowRight':
        if (expanded === 'false') toggle(id, true);
        else if (expanded === 'true') target = items[index + 1];
        break;
      case 'ArrowLeft':
        if (expanded === 'true') toggle(id, false);
        else target = items.find((candidate) => candidate.dataset.folderId === item.dataset.parentId);
        break;
      case ' ':
        item.click();
        break;
      default:
        return;
    }
    event.preventDefault();
    if (target) {
      setFocusedId(Number(target.dataset.folderId));
      target.focus();
    }
  }

  return (
    <ul role="tree" aria-label={label} className={styles.tree} onKeyDown={onKeyDown}>
      {nodes.map((node) => (
        <TreeItem key={node.folder.id} node={node} parentId={null} tree={tree} />
      ))}
    </ul>
  );
}

function containsId(nodes: FolderNode[], id: number): boolean {
  return nodes.some((node) => node.folder.id === id || containsId(node.children, id));
}

/** What every item of one tree is drawn with, handed down the tree as it is. */
type TreeShared = Required<Pick<FolderTreeProps, 'aliasId' | 'activeFolderId' | 'collector' | 'manage'>> &
  Pick<FolderTreeProps, 'onDropMessages'> & {
    /** The one item in the tab order. */
    tabStop: number | null;
    collapsed: ReadonlySet<number>;
    onToggle(id: number): void;
    onFocusItem(id: number): void;
  };

function TreeItem({ node, parentId, tree }: { node: FolderNode; parentId: number | null; tree: TreeShared }) {
  const { aliasId, activeFolderId, tabStop, collapsed, collector, manage } = tree;
  const { onToggle, onFocusItem } = tree;
  const { t } = useTranslation();
  const { folder, displayName, depth, children } = node;
  const hasChildren = children.length > 0;
  const isExpanded = hasChildren && !collapsed.has(folder.id);
  const active = folder.id === activeFolderId;
  const Icon = folder.system ? systemIcons[folder.system] : collector ? FolderDown : Folder;
  const groupId = `folder-group-${folder.id}`;
  const name =
    folder.unread > 0 ? `${displayName}, ${t('folders.unread', { count: folder.unread })}` : displayName;
  const [dropping, setDropping] = useState(false);
  // Scheduled, Snoozed and Drafts take no dropped messages (the server refuses a move into them).
  const onDropMessages = isMoveTarget(folder) ? tree.onDropMessages : undefined;

  // Selected messages dragged from the list move here on drop (SPEC §2 drag-and-drop onto the folder tree).
  function onDragOver(event: DragEvent) {
    if (!onDropMessages || !isMessageDrag([...event.dataTransfer.types])) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    if (!dropping) setDropping(true);
  }

  function onDrop(event: DragEvent) {
    setDropping(false);
    if (!isMessageDrag([...event.dataTransfer.types])) return;
    event.preventDefault();
    onDropMessages?.(folder.id, readDraggedMessages(event.dataTransfer));
  }

  function onChevron(event: MouseEvent) {
    // The chevron sits inside the row link; it folds the branch instead of opening the folder.
    event.preventDefault();
    event.stopPropagation();
    onToggle(folder.id);
  }

  const row = (
    <Link
      to={folderPath(aliasId, folder.id)}
      role="treeitem"
      aria-label={name}
      aria-level={depth + 1}
      aria-selected={active}
      aria-current={active ? 'page' : undefined}
      aria-expanded={hasChildren ? isExpanded : undefined}
      aria-owns={isExpanded ? groupId : undefined}
      tabIndex={folder.id === tabStop ? 0 : -1}
      data-folder-id={folder.id}
      data-parent-id={parentId ?? undefined}
      className={clsx(
        styles.row,
        active && styles.active,
        folder.unread > 0 && styles.unread,
        dropping && styles.dropping,
      )}
      onDragOver={onDragOver}
      onDragLeave={() => setDropping(false)}
      onDrop={onDrop}
      style={{ paddingLeft: `calc(var(--space-2) + ${depth * 16}px)` }}
      onFocus={() => onFocusItem(folder.id)}
    >
      <span
        className={clsx(styles.chevron, isExpanded && styles.open)}
        onClick={hasChildren ? onChevron : undefined}
        aria-hidden
      >
        {hasChildren ? <ChevronRight /> : null}
      </span>
      <Icon className={styles.icon} aria-hidden />
      <span className={styles.name}>{displayName}</span>
      {folder.unread > 0 ? (
        <span className={styles.count} aria-hidden>
          {folder.unread > 9999 ? '9999+' : folder.unread}
        </span>
      ) : null}
    </Link>
  );

  return (
    <li role="none" className={styles.node}>
      {manage ? (
        <div className={itemMenuHost} data-active={active || undefined}>
          {row}
          <ItemMenu
            item={{ kind: 'folder', id: folder.id, name: displayName, system: folder.system !== null }}
            tabbable={folder.id === tabStop}
          />
        </div>
      ) : (
        row
      )}
      {isExpanded ? (
        <ul role="group" id={groupId} className={styles.group}>
          {children.map((child) => (
            <TreeItem key={child.folder.id} node={child} parentId={folder.id} tree={tree} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}
