import { z } from 'zod';
import { rowIdSchema } from './common.js';

/** System roles of folders (SPEC §3); INBOX carries 'inbox'. */
export const folderSystemValues = [
  'inbox',
  'sent',
  'draft',
  'trash',
  'junk',
  'scheduled',
  'snoozed',
] as const;
export type FolderSystem = (typeof folderSystemValues)[number];

export interface Folder {
  id: number;
  /** Dotted path such as INBOX.Sent; the last segment is the display name. */
  name: string;
  system: FolderSystem | null;
  unread: number;
  total: number;
  subfolders: Folder[];
  isCollector: boolean;
  isSubCollector: boolean;
  /** Junk: messages that arrived longer ago than this many days are removed (JUNK_RETENTION_DAYS). */
  retention_days?: number;
}

export const folderSchema: z.ZodType<Folder> = z.lazy(() =>
  z.object({
    id: z.number().int(),
    name: z.string(),
    system: z.enum(folderSystemValues).nullable(),
    unread: z.number().int(),
    total: z.number().int(),
    subfolders: z.array(folderSchema),
    isCollector: z.boolean(),
    isSubCollector: z.boolean(),
    retention_days: z.number().int().optional(),
  }),
);

/** GET folders: the tree, system folders first. */
export const foldersResponseSchema = z.object({ folders: z.array(folderSchema) });
export type FoldersResponse = z.infer<typeof foldersResponseSchema>;

/** Longest display name (one segment) of a folder; the dotted path is bounded by depth × this. */
export const FOLDER_NAME_MAX = 100;
/** Deepest nesting below the INBOX namespace. */
export const FOLDER_DEPTH_MAX = 10;

/**
 * Why a folder's display name (one segment of the dotted path) is refused, or null when it is
 * fine. Dots separate levels; slashes, `%` and `*` would be ambiguous to a future IMAP face
 * (path separators and LIST wildcards); control characters and bidirectional overrides (which
 * can make a name display as another) never belong in a name.
 */
export function folderNameProblem(name: string): 'name_not_indicated' | 'folder_name_invalid' | null {
  const trimmed = name.trim();
  if (!trimmed) return 'name_not_indicated';
  // eslint-disable-next-line no-control-regex
  if (/[.\\/%*\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/.test(trimmed))
    return 'folder_name_invalid';
  if ([...trimmed].length > FOLDER_NAME_MAX) return 'folder_name_invalid';
  return null;
}

/** POST folders. A null parent (or the Inbox) means a top-level folder beside Inbox, Sent… */
export const folderCreateSchema = z.object({
  folder: z.object({
    parent_id: rowIdSchema.nullable(),
    name: z.string().max(1000),
  }),
});
export type FolderCreate = z.infer<typeof folderCreateSchema>;

/** POST folders/{id}: rename and/or move; subfolders follow. */
export const folderUpdateSchema = z.object({
  folder: z.object({
    name: z.string().max(1000).optional(),
    parent_id: rowIdSchema.nullable().optional(),
  }),
});
export type FolderUpdate = z.infer<typeof folderUpdateSchema>;

export const folderResponseSchema = z.object({ folder: folderSchema });
export type FolderResponse = z.infer<typeof folderResponseSchema>;
