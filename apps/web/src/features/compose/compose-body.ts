import { COMPOSE_MODE, SIGNATURE_SEPARATOR, type ComposeMode, type Settings } from '@mailroom/protocol';
import { escapeHtml, htmlToPlain, plainToHtml } from './body-text';

export type BodyFormat = 'html' | 'plain';

/** Whether a message in this mode gets a signature (SPEC §4 signature_add: always, response, new_message). */
export function wantsSignature(mode: ComposeMode, signatureAdd: Settings['signature_add']): boolean {
  if (signatureAdd === 'always') return true;
  return signatureAdd === 'new_message' ? mode === COMPOSE_MODE.NEW : mode !== COMPOSE_MODE.NEW;
}

/**
 * The signature block: the separator '---' and the signature under it. Profile signatures may be HTML; the
 * plain-text mode strips the markup (SPEC §5). Empty when there is no signature.
 */
export function signatureBlock(signature: string, format: BodyFormat): string {
  const looksHtml = /<[a-z][^>]*>/i.test(signature);
  const text = looksHtml ? htmlToPlain(signature) : signature.trim();
  if (!text.trim()) return '';
  if (format === 'plain') return `${SIGNATURE_SEPARATOR}\n${text}`;
  return `<p>${SIGNATURE_SEPARATOR}</p>${looksHtml ? signature.trim() : plainToHtml(text)}`;
}

/** The quoted original of a reply or forward: its header line and its body. */
export interface QuotedOriginal {
  /** 'On <date>, <sender> wrote:' for replies; the forwarded-message lines for a forward (one per line). */
  header: string[];
  /** The original body in the format it came in. */
  body: string;
  bodyFormat: BodyFormat;
}

function quoteHtml(original: QuotedOriginal): string {
  const header = `<p>${original.header.map(escapeHtml).join('<br>')}</p>`;
  const body = original.bodyFormat === 'html' ? original.body : plainToHtml(original.body);
  return `${header}<blockquote>${body}</blockquote>`;
}

function quotePlain(original: QuotedOriginal): string {
  const text =
    original.bodyFormat === 'html' ? htmlToPlain(original.body) : original.body.replace(/\r\n?/g, '\n');
  const quoted = text
    .split('\n')
    .map((line) => (line ? `> ${line}` : '>'))
    .join('\n');
  return `${original.header.join('\n')}\n${quoted}`;
}

export interface InitialBody {
  format: BodyFormat;
  /** The sender's signature, or '' when the mode or the settings leave it out. */
  signature: string;
  /**
   * signature_reply (SPEC §3): true puts the signature right under the new text, above the quoted original;
   * false puts it at the very end, under the quote.
   */
  signatureAboveQuote: boolean;
  quote: QuotedOriginal | null;
}

/** The body a new compose window starts with: an empty line to write on, the signature and the quote. */
export function initialBody({ format, signature, signatureAboveQuote, quote }: InitialBody): string {
  const block = signatureBlock(signature, format);
  const quoted = quote ? (format === 'html' ? quoteHtml(quote) : quotePlain(quote)) : '';
  const parts = signatureAboveQuote || !quoted ? ['', block, quoted] : ['', quoted, block];
  const present = parts.filter((part, index) => index === 0 || part);
  if (format === 'plain') return present.join('\n\n');
  return present.map((part) => part || '<p></p>').join('');
}

/**
 * Replaces the signature block of one sender with another's when From changes, if the block is still in the body
 * as it was put there. Returns null when it is not (the user edited it), so the body is left alone.
 */
export function swapSignature(body: string, oldBlock: string, newBlock: string): string | null {
  if (oldBlock === newBlock) return body;
  if (!oldBlock) return null;
  const at = body.lastIndexOf(oldBlock);
  if (at < 0) return null;
  return body.slice(0, at) + newBlock + body.slice(at + oldBlock.length);
}

/** Switching the editor between rich text and plain text converts the body. */
export function convertBody(body: string, to: BodyFormat): string {
  return to === 'plain' ? htmlToPlain(body) : plainToHtml(body);
}
