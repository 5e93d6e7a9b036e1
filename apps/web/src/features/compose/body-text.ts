/** Conversions between the two body formats of compose (text/html and text/plain). */
import { SIGNATURE_SEPARATOR } from '@mailroom/protocol';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Plain text as HTML paragraphs: blank lines separate paragraphs, single newlines become <br>. */
export function plainToHtml(text: string): string {
  const normalized = text.replace(/\r\n?/g, '\n');
  if (!normalized.trim()) return '<p></p>';
  return normalized
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${paragraph.split('\n').map(escapeHtml).join('<br>')}</p>`)
    .join('');
}

const BLOCKS = new Set([
  'P',
  'DIV',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'PRE',
  'TABLE',
  'BLOCKQUOTE',
  'UL',
  'OL',
]);
const SKIPPED = new Set(['SCRIPT', 'STYLE', 'HEAD', 'TITLE', 'TEMPLATE']);

/** Lays text out line by line: blocks ask for a break (1 = new line, 2 = blank line), text fulfils it. */
class PlainWriter {
  lines: string[] = [];
  private line = '';
  private prefix = '';
  private linePrefix = '';
  private pending = 0;
  private marker = '';
  quote = '';

  /** Set after the signature separator: the next block starts on the very next line. */
  private tight = false;

  request(breaks: number): void {
    this.pending = Math.min(Math.max(this.pending, breaks), this.tight ? 1 : 2);
  }

  keepNextTight(): void {
    this.tight = true;
    this.pending = Math.min(this.pending, 1);
  }

  setMarker(marker: string): void {
    this.marker = marker;
  }

  hardBreak(): void {
    this.lines.push(this.linePrefix + this.line);
    this.line = '';
    this.linePrefix = this.quote;
    this.prefix = this.quote;
  }

  text(raw: string): void {
    let text = raw.replace(/\s+/g, ' ');
    const started = this.line !== '' || this.lines.length > 0;
    if (this.pending > 0 && started) {
      if (this.line !== '') this.lines.push(this.linePrefix + this.line);
      // A blank line between two quote depths belongs to the shallower one.
      const shared = this.quote.length < this.prefix.length ? this.quote : this.prefix;
      for (let i = 1; i < this.pending; i += 1) this.lines.push(shared.trimEnd());
      this.line = '';
    }
    if (this.line === '') {
      text = text.replace(/^ /, '');
      if (!text) return;
      this.linePrefix = this.quote;
      text = this.marker + text;
      this.marker = '';
    }
    this.pending = 0;
    this.tight = false;
    this.prefix = this.quote;
    this.line += text;
  }

  finish(): string {
    if (this.line) this.lines.push(this.linePrefix + this.line);
    return this.lines
      .map((line) => line.replace(/\s+$/, ''))
      .join('\n')
      .replace(/^\n+|\n+$/g, '');
  }
}

function walk(node: Node, out: PlainWriter, inList: { ordered: boolean; index: number } | null): void {
  if (node.nodeType === Node.TEXT_NODE) {
    out.text(node.textContent ?? '');
    return;
  }
  if (!(node instanceof Element) || SKIPPED.has(node.tagName)) return;
  const tag = node.tagName;
  if (tag === 'BR') {
    out.hardBreak();
    return;
  }
  // Paragraphs inside a list item (TipTap writes <li><p>…</p></li>) keep the list tight.
  const breaks = tag === 'LI' || tag === 'TR' || (inList && tag === 'P') ? 1 : BLOCKS.has(tag) ? 2 : 0;
  out.request(breaks);
  const outerQuote = out.quote;
  if (tag === 'BLOCKQUOTE') out.quote = `${outerQuote}> `;
  let list = inList;
  if (tag === 'UL' || tag === 'OL') list = { ordered: tag === 'OL', index: 0 };
  if (tag === 'LI' && inList) out.setMarker(inList.ordered ? `${++inList.index}. ` : '- ');
  for (const child of node.childNodes) walk(child, out, list);
  if (tag === 'A') {
    const href = node.getAttribute('href') ?? '';
    const text = (node.textContent ?? '').trim();
    if (/^(https?|mailto):/i.test(href) && href.replace(/^mailto:/i, '') !== text) out.text(` <${href}>`);
  }
  out.quote = outerQuote;
  // The signature separator '---' stays on the line right above the signature, as in plain-text mail.
  if (tag === 'P' && node.textContent?.trim() === SIGNATURE_SEPARATOR) out.keepNextTight();
  else out.request(breaks);
}

/**
 * The text of an HTML body, for the plain-text mode and for quoting: paragraphs and line breaks kept, quotes
 * as '> ' lines, list items with '-' or their number, links with their address. Markup never survives.
 */
export function htmlToPlain(html: string): string {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  const out = new PlainWriter();
  walk(doc.body, out, null);
  return out.finish();
}
