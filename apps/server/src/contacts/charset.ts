import { isUtf8 } from 'node:buffer';
import iconv from 'iconv-lite';

/** What a contacts file without a BOM or a CHARSET is read as when it is not valid UTF-8 (Outlook on Russian Windows). */
export const FALLBACK_CHARSET = 'windows-1251';

/**
 * A file's bytes with its byte order mark taken off, in UTF-8 or the charset its bytes are in: a BOM says which
 * (UTF-8, UTF-16 LE or BE, then re-encoded as UTF-8), else UTF-8 when the bytes are valid UTF-8, else windows-1251.
 */
export function fileCharset(bytes: Buffer): { bytes: Buffer; charset: 'utf-8' | typeof FALLBACK_CHARSET } {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return { bytes: bytes.subarray(3), charset: 'utf-8' };
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return { bytes: Buffer.from(iconv.decode(bytes.subarray(2), 'utf-16le'), 'utf8'), charset: 'utf-8' };
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return { bytes: Buffer.from(iconv.decode(bytes.subarray(2), 'utf-16be'), 'utf8'), charset: 'utf-8' };
  return { bytes, charset: isUtf8(bytes) ? 'utf-8' : FALLBACK_CHARSET };
}

/** A whole file as text (fileCharset's reading). */
export function decodeFile(bytes: Buffer): string {
  const found = fileCharset(bytes);
  return iconv.decode(found.bytes, found.charset);
}

/** Bytes in a named charset (a vCard CHARSET parameter); an unknown name reads them as `fallback`. */
export function decodeBytes(bytes: Buffer, charset: string | undefined, fallback: string): string {
  const name = charset && iconv.encodingExists(charset) ? charset : fallback;
  return iconv.decode(bytes, name);
}

/** decodeFile a piece at a time, `pause` called between pieces (a 5 MB file takes a few hundred ms at once). */
export async function decodeFileSliced(bytes: Buffer, pause: () => Promise<void>): Promise<string> {
  const found = fileCharset(bytes);
  const decoder = iconv.getDecoder(found.charset);
  const parts: string[] = [];
  for (let at = 0; at < found.bytes.length; at += 256 * 1024) {
    parts.push(decoder.write(found.bytes.subarray(at, at + 256 * 1024)));
    await pause();
  }
  parts.push(decoder.end() ?? '');
  return parts.join('');
}
