import type { ParsedMessage } from './parse-message.js';
import { parseInWorker } from './parse-pool.js';
import { parseHeadersOnly } from './header-fallback.js';

/**
 * Parses raw RFC 5322 bytes. mailparser runs in a worker thread with memory and time limits so
 * hostile mail (deep nesting, millions of parts, huge headers) cannot stall or crash the server;
 * when the worker fails, the message is described from a bounded parse of its header alone.
 * Never throws for any input.
 */
export async function parseMessage(raw: Buffer): Promise<ParsedMessage> {
  try {
    return await parseInWorker(raw);
  } catch {
    return parseHeadersOnly(raw);
  }
}
