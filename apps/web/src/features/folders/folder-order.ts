import { folderDisplayName, isCollectorFolderName, type Folder, type FolderSystem } from '@mailroom/protocol';

/** SPEC §2: system folders first, in this order. */
export const systemFolderOrder: readonly FolderSystem[] = [
  'inbox',
  'sent',
  'draft',
  'scheduled',
  'snoozed',
  'trash',
  'junk',
];

/**
 * Folders the server fills itself (issue 31): Scheduled holds what waits to be sent and Snoozed what waits to come
 * back. Nothing is moved into them by hand (the server answers 403), and Drafts takes only what compose saves.
 */
const notMoveTargets: readonly FolderSystem[] = ['draft', 'scheduled', 'snoozed'];

/** Whether messages may be moved (menu, drag, a filter's fileinto) into the folder. */
export function isMoveTarget(folder: Pick<Folder, 'system'>): boolean {
  return !folder.system || !notMoveTargets.includes(folder.system);
}

export interface FolderNode {
  folder: Folder;
  /** Translated name for system folders, else the last dotted segment. */
  displayName: string;
  depth: number;
  children: FolderNode[];
}

export interface FolderSections {
  /** System folders in SPEC order, then the user's own folders in server order. */
  main: FolderNode[];
  /** Folders filled by collectors, kept apart (SPEC §2). */
  collectors: FolderNode[];
}

export type SystemFolderNames = Record<FolderSystem, string>;

function isCollector(folder: Folder): boolean {
  return folder.isCollector || folder.isSubCollector || isCollectorFolderName(folder.name);
}

function toNode(folder: Folder, depth: number, names: SystemFolderNames): FolderNode {
  return {
    folder,
    displayName: folder.system ? names[folder.system] : folderDisplayName(folder.name),
    depth,
    children: folder.subfolders.map((child) => toNode(child, depth + 1, names)),
  };
}

function withDepth(node: FolderNode, depth: number): FolderNode {
  return { ...node, depth, children: node.children.map((child) => withDepth(child, depth + 1)) };
}

/**
 * Orders the folder tree for the sidebar. In dotted IMAP names every folder lives under INBOX (INBOX.Sent,
 * INBOX.Work), but people read them as siblings of Inbox, so Inbox's subfolders are lifted to the top level.
 * Collector folders wherever they sit move to their own section.
 */
export function buildFolderSections(folders: readonly Folder[], names: SystemFolderNames): FolderSections {
  const topLevel: Folder[] = [];
  for (const folder of folders) {
    if (folder.system === 'inbox') {
      topLevel.push({ ...folder, subfolders: [] });
      topLevel.push(...folder.subfolders);
    } else if (folder.name === 'INBOX.import') {
      // The collectors' namespace (when the server lists it) is no folder to people: its collectors are the section.
      topLevel.push(...folder.subfolders);
    } else {
      topLevel.push(folder);
    }
  }

  const collectors: FolderNode[] = [];
  const pruneCollectors = (folder: Folder): Folder => ({
    ...folder,
    subfolders: folder.subfolders
      .filter((child) => {
        if (!isCollector(child)) return true;
        collectors.push(toNode(child, 0, names));
        return false;
      })
      .map(pruneCollectors),
  });

  const system: FolderNode[] = [];
  const own: FolderNode[] = [];
  for (const folder of topLevel) {
    if (isCollector(folder)) {
      collectors.push(toNode(folder, 0, names));
      continue;
    }
    const node = toNode(pruneCollectors(folder), 0, names);
    (folder.system ? system : own).push(node);
  }
  system.sort(
    (a, b) =>
      systemFolderOrder.indexOf(a.folder.system as FolderSystem) -
      systemFolderOrder.indexOf(b.folder.system as FolderSystem),
  );
  return { main: [...system, ...own], collectors: collectors.map((node) => withDepth(node, 0)) };
}

/** Every folder of the tree, depth first. */
export function flattenFolders(folders: readonly Folder[]): Folder[] {
  return folders.flatMap((folder) => [folder, ...flattenFolders(folder.subfolders)]);
}

export function findInbox(folders: readonly Folder[]): Folder | undefined {
  return flattenFolders(folders).find((folder) => folder.system === 'inbox');
}
