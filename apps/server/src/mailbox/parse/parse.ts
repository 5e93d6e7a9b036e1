import fs from 'node:fs/promises';
import { HEADER_LIMIT, type ParsedMessage } from './message-text.js';
import { parseInWorker } from './parse-pool.js';

/**
 * Parses raw RFC 5322 bytes. mailparser runs in a worker thread with memory and time limits so
 * hostile mail (deep nesting, millions of parts, huge headers) cannot stall or crash the server;
 * when the worker fails, the message is described from a bounded parse of its header alone (header-fallback.ts,
 * loaded then: the main thread otherwise never loads mailparser).
 * Never throws for any input.
 */
export async function parseMessage(raw: Buffer, onFallback?: (err: unknown) => void): Promise<ParsedMessage> {
  try {
    return await parseInWorker({ raw });
  } catch (err) {
    onFallback?.(err);
    return (await import('./header-fallback.js')).parseHeadersOnly(raw);
  }
}

/**
 * Parses a message file (received mail spooled to the blob store's temporary area) the same way,
 * with bounded memory: the worker reads the file as a stream, so neither the message nor an
 * attachment is ever held whole. A failed parse falls back to the first bytes of the file.
 * Never throws for a readable file.
 */
export async function parseMessageFile(
  file: { path: string; size: number; bytes?: Buffer },
  onFallback?: (err: unknown) => void,
): Promise<ParsedMessage> {
  // A small spooled message is in memory only (SpooledFile.bytes): no file was written.
  if (file.bytes) return parseMessage(file.bytes, onFallback);
  try {
    return await parseInWorker({ file: file.path, size: file.size });
  } catch (err) {
    onFallback?.(err);
    return (await import('./header-fallback.js')).parseHeadersOnly(
      await readHead(file.path, 2 * HEADER_LIMIT),
    );
  }
}

/** The first `bytes` bytes of a message file (its header, the start of the body). */
export async function readHead(file: string, bytes: number): Promise<Buffer> {
  const handle = await fs.open(file, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
