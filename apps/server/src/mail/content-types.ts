/**
 * The declared type is served only for types a browser renders passively; HTML, SVG, XML,
 * scripts and anything unknown become application/octet-stream so nothing runs on our origin.
 */
export function servedContentType(declared: string): string {
  const type = declared.split(';')[0]!.trim().toLowerCase();
  if (/^image\/(png|gif|jpeg|pjpeg|webp|avif|bmp|apng|x-icon|vnd\.microsoft\.icon|tiff)$/.test(type))
    return type;
  if (/^(audio|video)\/[a-z0-9.+-]+$/.test(type)) return type;
  if (type === 'application/pdf') return type;
  if (type === 'text/plain' || type === 'text/csv') return `${type}; charset=utf-8`;
  return 'application/octet-stream';
}
