/**
 * How the web client shows an attachment's name (SPEC §3): its icon kind and its name without invisible format
 * characters. Apart from format.ts because only the reader and compose use them: the web app's mail shell keeps
 * whatever module it imports, so they would ride in its initial JavaScript (DESIGN §5).
 */

export type AttachmentKind = 'pdf' | 'doc' | 'audio' | 'xls' | 'video' | 'archive' | 'img' | 'other';

// SPEC §3 lists; 'doc' and 'xls' themselves are read as extensions of their kinds, as 'pdf' is.
const attachmentExtensions: Record<Exclude<AttachmentKind, 'other'>, readonly string[]> = {
  pdf: ['pdf'],
  doc: ['doc', 'docx', 'txt', 'odt', 'tex', 'rtf'],
  audio: ['mp3', 'wav', 'flac', 'aac', 'aa'],
  xls: ['xls', 'xlsx', 'xlsm', 'xlsb'],
  video: ['mkv', 'flv', 'avi', 'mp4'],
  archive: ['zip', 'zipx', 'rar', '7z', 'tar'],
  img: ['jpg', 'png', 'apng', 'avif', 'gif', 'jpeg', 'jfif', 'pjpeg', 'pjp', 'svg', 'webp'],
};

const kindByExtension = new Map<string, AttachmentKind>(
  Object.entries(attachmentExtensions).flatMap(([kind, extensions]) =>
    extensions.map((extension) => [extension, kind as AttachmentKind] as const),
  ),
);

/** The icon kind of an attachment by the extension after its last dot, case-insensitive. */
export function attachmentKind(filename: string): AttachmentKind {
  const name = filename.trim();
  const dot = name.lastIndexOf('.');
  if (dot < 0) return 'other';
  return kindByExtension.get(name.slice(dot + 1).toLowerCase()) ?? 'other';
}

/**
 * A name as a person is shown it (an attachment, a file): without invisible format characters (Unicode Cf:
 * bidi embeddings, overrides and isolates, marks, soft hyphens, zero-width spaces, BOM), which can make
 * `invoice\u202Efdp.exe` read as "invoiceexe.pdf". Zero-width joiner and non-joiner stay: emoji and some
 * scripts need them.
 */
export function withoutInvisibleFormatting(name: string): string {
  return name.replace(/(?![\u200c\u200d])\p{Cf}/gu, '');
}
