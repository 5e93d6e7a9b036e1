import type { Readable } from 'node:stream';

/** Types that say nothing about what the bytes are. */
export function isUntyped(declared: string): boolean {
  const type = declared.split(';')[0]!.trim().toLowerCase();
  return type === '' || type === 'application/octet-stream' || type === 'binary/octet-stream';
}

export const SNIFF_BYTES = 16;

/**
 * The raster image type the first bytes of a file announce (PNG, JPEG, GIF, WebP, AVIF), or undefined:
 * only what the bytes prove is served as an image, never what a name or a guess suggests.
 */
export function sniffImageType(head: Buffer): string | undefined {
  const ascii = (from: number, to: number) => head.subarray(from, to).toString('latin1');
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'image/gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  if (ascii(4, 8) === 'ftyp' && ['avif', 'avis'].includes(ascii(8, 12))) return 'image/avif';
  return undefined;
}

/** Reads at least `bytes` from the start of a stream (fewer if it ends first); the caller sends them on. */
export async function readHead(stream: Readable, bytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let have = 0;
  while (have < bytes && !stream.readableEnded && !stream.destroyed) {
    const chunk = stream.read() as Buffer | null;
    if (chunk) {
      chunks.push(chunk);
      have += chunk.length;
      continue;
    }
    await new Promise<void>((resolve, reject) => {
      const settle = (err?: Error) => {
        stream
          .off('readable', onReadable)
          .off('end', onReadable)
          .off('close', onReadable)
          .off('error', settle);
        if (err) reject(err);
        else resolve();
      };
      const onReadable = () => settle();
      stream
        .once('readable', onReadable)
        .once('end', onReadable)
        .once('close', onReadable)
        .once('error', settle);
    });
  }
  return Buffer.concat(chunks);
}
