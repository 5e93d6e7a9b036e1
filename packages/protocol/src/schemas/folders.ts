import { z } from 'zod';

/** System roles of folders (SPEC §3); INBOX carries 'inbox'. */
export const folderSystemValues = ['inbox', 'sent', 'draft', 'trash', 'junk'] as const;
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
  }),
);

/** GET folders: the tree, system folders first. */
export const foldersResponseSchema = z.object({ folders: z.array(folderSchema) });
export type FoldersResponse = z.infer<typeof foldersResponseSchema>;
