import { withoutInvisibleFormatting } from '@mailroom/protocol';
import type { MessageAddresses, PartRange } from '../../core/db/index.js';

/*
 * What the store keeps of a parsed message and the plain-text rules for its fields. Apart from parse-message.ts
 * (mailparser) so that the main thread, which parses in workers (parse-pool.ts), does not load mailparser and its
 * linkify, entity and charset tables (~4.5 MB of heap) until a message needs the header-only fallback.
 */

export interface ParsedAttachment {
  name: string;
  contentType: string;
  /** Decoded size in bytes. */
  size: number;
  /** Where its bytes are in the raw message: they are stored once, as part of the message. */
  part: PartRange;
  contentId: string | null;
  inline: boolean;
}

/** What the store keeps of a message besides its raw bytes. */
export interface ParsedMessage {
  messageId: string | null;
  inReplyTo: string | null;
  references: string[];
  subject: string;
  addresses: MessageAddresses;
  sentAt: Date | null;
  text: string;
  html: string | null;
  attachments: ParsedAttachment[];
}

const PREVIEW_LENGTH = 200;
/**
 * What the reader is shown of a body. The raw message keeps everything; a bigger body is a
 * hostile or broken one, and the database row and the search index must stay small.
 */
export const MAX_BODY_CHARS = 4_000_000;
/** Parts beyond this stay in the raw message only, not listed (the list is a row's jsonb). */
export const MAX_ATTACHMENTS = 500;
const MAX_NAME_CHARS = 255;

/** `<id@host>` → `id@host`; message ids are compared without brackets. */
export function normaliseMessageId(value: string | undefined | null): string | null {
  const id = cleanLine(value ?? '')
    .trim()
    .replace(/^<|>$/g, '')
    .trim();
  return id ? id.slice(0, 998) : null;
}

/**
 * PostgreSQL text and jsonb cannot hold NUL, and a header value never needs a control
 * character: both are dropped from anything that goes into a row.
 */
// eslint-disable-next-line no-control-regex
const controlChars = /[\u0000-\u001f\u007f]/g;
export function cleanLine(value: string): string {
  return value.replace(controlChars, ' ').replace(/ {2,}/g, ' ');
}
// eslint-disable-next-line no-control-regex
const nul = /\u0000/g;
export function cleanBody(value: string): string {
  return value.replace(nul, '').slice(0, MAX_BODY_CHARS);
}

/**
 * An attachment name as shown and offered for download: the last path segment only (`../x`,
 * `..\x`, `/etc/x` → `x`), no control characters, bounded. Storage never uses it: blobs are
 * keyed by hash.
 */
export function safeAttachmentName(name: string): string {
  const last =
    withoutInvisibleFormatting(cleanLine(name))
      .split(/[/\\]/)
      .filter((s) => s.trim() !== '')
      .pop() ?? '';
  const trimmed = last.trim().replace(/^\.+$/, '');
  return trimmed.slice(0, MAX_NAME_CHARS);
}

/** A short, single-line text excerpt for the list. */
export function previewOf(text: string): string {
  return cleanLine(text).replace(/\s+/g, ' ').trim().slice(0, PREVIEW_LENGTH);
}

/** Header bytes read when the full parse failed: enough for any sane header, bounded for a hostile one. */
export const HEADER_LIMIT = 64 * 1024;
