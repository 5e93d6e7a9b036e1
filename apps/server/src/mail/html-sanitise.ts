import sanitizeHtml from 'sanitize-html';
import postcss, { type Root } from 'postcss';

export interface SanitiseOptions {
  /**
   * Show remote images (the reader's "show images"): each one through `proxyUrl`, so the browser
   * fetches only from our origin. Tracking pixels and remote stylesheets stay out anyway.
   */
  showImages: boolean;
  /** The same-origin address a remote image is loaded through (the signed image proxy URL). */
  proxyUrl: (remoteUrl: string) => string;
  /** The URL an inline part (`cid:` reference, Content-ID without brackets) is served at, if we have it. */
  inlineUrl: (contentId: string) => string | undefined;
}

export interface SanitisedHtml {
  html: string;
  /** A remote image (img, srcset, background, CSS url) was left out: 'show images' would show it. */
  imagesBlocked: boolean;
}

/** Larger HTML is not rendered (sanitising costs ~0.3 ms per KB on this machine, on the event loop). */
export const HTML_RENDER_LIMIT = 1024 * 1024;
/** Deeper explicit nesting is hostile (sanitize-html's cost grows faster than linearly with depth). */
const HTML_DEPTH_LIMIT = 500;
// Elements that never nest (void) or that HTML closes implicitly: sloppy mail leaves them open.
const notNesting = new Set(
  'area base br col embed hr img input link meta param source track wbr p li dt dd td th tr thead tbody tfoot colgroup option optgroup rt rp'.split(
    ' ',
  ),
);

/**
 * Whether a body is too big or too deeply nested to sanitise within a bounded time; such a
 * message is shown as its text part instead. One linear pass over the tags, no parsing.
 */
export function htmlTooComplex(html: string): boolean {
  if (html.length > HTML_RENDER_LIMIT) return true;
  let depth = 0;
  for (const m of html.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9-]*)[^>]*?(\/?)>/g)) {
    if (notNesting.has(m[2]!.toLowerCase()) || m[3]) continue;
    depth += m[1] ? -1 : 1;
    if (depth < 0) depth = 0;
    if (depth > HTML_DEPTH_LIMIT) return true;
  }
  return false;
}

/**
 * Server-side sanitising of message HTML. The web client renders the result in a sandboxed iframe
 * without scripts and runs DOMPurify again; this step is the one the API guarantees: no scripts,
 * event handlers, forms, frames, objects or base/meta tricks, and nothing remote is fetched
 * (images, srcset, background attributes, `url()` in styles) unless asked, and then only through
 * the image proxy; remote stylesheets (`<link>`, `@import`) never.
 */
export function sanitiseMessageHtml(html: string, options: SanitiseOptions): SanitisedHtml {
  const ctx = { ...options, blocked: false };
  const out = sanitizeHtml(html, {
    allowedTags,
    allowedAttributes,
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    allowedSchemesByTag: { img: ['http', 'https', 'data'] },
    allowProtocolRelative: false,
    // Their text must not leak into the body as visible text (and <style> is handled below).
    nonTextTags: [
      'script',
      'textarea',
      'option',
      'noscript',
      'title',
      'xmp',
      'noembed',
      'noframes',
      'template',
    ],
    allowVulnerableTags: true, // <style>: its text is rewritten by neutraliseStyleBlocks before anyone sees it.
    parseStyleAttributes: false, // style attributes are parsed and cleaned in transformTags instead.
    nestingLimit: 200,
    transformTags: {
      '*': (tagName, attribs) => transformTag(tagName, attribs, ctx),
    },
  });
  return { html: neutraliseStyleBlocks(out, ctx), imagesBlocked: ctx.blocked };
}

const allowedTags = [
  ...sanitizeHtml.defaults.allowedTags,
  'img',
  'style',
  'link',
  'font',
  'center',
  'big',
  'small',
  'strike',
  'u',
  's',
  'sub',
  'sup',
  'del',
  'ins',
  'hr',
  'br',
  'span',
  'div',
  'table',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'td',
  'th',
  'col',
  'colgroup',
  'caption',
  'picture',
];

const common = [
  'style',
  'class',
  'id',
  'title',
  'dir',
  'lang',
  'align',
  'valign',
  'width',
  'height',
  'bgcolor',
  'color',
  'border',
];
const allowedAttributes: sanitizeHtml.IOptions['allowedAttributes'] = {
  '*': common,
  a: [...common, 'href', 'name', 'target', 'rel'],
  img: [...common, 'src', 'srcset', 'alt', 'hspace', 'vspace'],
  font: [...common, 'face', 'size'],
  table: [...common, 'cellpadding', 'cellspacing', 'background', 'frame', 'rules', 'summary'],
  td: [...common, 'colspan', 'rowspan', 'background', 'nowrap', 'abbr', 'scope'],
  th: [...common, 'colspan', 'rowspan', 'background', 'nowrap', 'abbr', 'scope'],
  tr: [...common, 'background'],
  col: [...common, 'span'],
  colgroup: [...common, 'span'],
  ol: [...common, 'start', 'type', 'reversed'],
  ul: [...common, 'type'],
  li: [...common, 'value', 'type'],
  link: ['rel', 'href'],
  style: ['media', 'type'],
};

type Ctx = SanitiseOptions & { blocked: boolean };

/** A URL a message asks the reader to fetch, by what it would cost the reader's privacy. */
function classifyUrl(value: string, ctx: Ctx): { kind: 'keep' | 'remote' | 'drop'; url?: string } {
  const url = value.trim();
  const lower = url.toLowerCase();
  if (lower.startsWith('cid:')) {
    let id = url.slice(4);
    try {
      id = decodeURIComponent(id);
    } catch {
      // keep it as written
    }
    const local = ctx.inlineUrl(id.replace(/^<|>$/g, ''));
    return local ? { kind: 'keep', url: local } : { kind: 'drop' };
  }
  if (/^data:image\/(png|gif|jpe?g|webp|bmp|avif);base64,[a-z0-9+/=\s]*$/i.test(url))
    return { kind: 'keep', url };
  if (/^https?:\/\/[^\s\\]+$/i.test(url)) return { kind: 'remote', url };
  // Relative, protocol-relative, javascript:, or anything odd: never fetched.
  return { kind: 'drop' };
}

/** A remote resource: kept when images are shown, otherwise left out and noted. */
function remoteAllowed(ctx: Ctx): boolean {
  if (ctx.showImages) return true;
  ctx.blocked = true;
  return false;
}

/** Where a kept URL is loaded from: remote ones only through the proxy. */
function loadedFrom(url: { kind: 'keep' | 'remote'; url?: string }, ctx: Ctx): string {
  return url.kind === 'remote' ? ctx.proxyUrl(url.url!) : url.url!;
}

function isTrackingPixel(attribs: Record<string, string>): boolean {
  const tiny = (v: string | undefined) => v !== undefined && /^\s*[01](px)?\s*$/i.test(v);
  const style = (attribs.style ?? '').toLowerCase().replace(/\s+/g, '');
  return (
    (tiny(attribs.width) && tiny(attribs.height)) ||
    /display:none|visibility:hidden/.test(style) ||
    (/(^|;)width:[01]px/.test(style) && /(^|;)height:[01]px/.test(style))
  );
}

function transformTag(tagName: string, attribs: Record<string, string>, ctx: Ctx): sanitizeHtml.Tag {
  const a: Record<string, string> = { ...attribs };
  if (a.style !== undefined) {
    const css = cleanStyleAttribute(a.style, ctx);
    if (css) a.style = css;
    else delete a.style;
  }
  if (a.background !== undefined) {
    const bg = classifyUrl(a.background, ctx);
    if (bg.kind === 'keep' || (bg.kind === 'remote' && remoteAllowed(ctx)))
      a.background = loadedFrom({ kind: bg.kind, url: bg.url }, ctx);
    else delete a.background;
  }
  if (tagName === 'img') {
    if (a.src !== undefined) {
      const src = classifyUrl(a.src, ctx);
      // A remote pixel exists only to tell the sender the mail was opened: never loaded, so it is not
      // counted as blocked either ('show images' would not show it).
      // (Renaming the tag away would confuse sanitize-html's raw-text handling: an empty img is inert.)
      if (src.kind === 'remote' && isTrackingPixel(attribs)) return { tagName, attribs: {} };
      if (src.kind === 'keep' || (src.kind === 'remote' && remoteAllowed(ctx)))
        a.src = loadedFrom({ kind: src.kind, url: src.url }, ctx);
      else delete a.src;
    }
    if (a.srcset !== undefined) {
      const candidates = a.srcset.split(',').map((c) => c.trim().split(/\s+/));
      const allRemote = candidates.every(([url]) => classifyUrl(url ?? '', ctx).kind === 'remote');
      if (allRemote && remoteAllowed(ctx))
        a.srcset = candidates
          .map(([url, ...descriptor]) => [ctx.proxyUrl(url!.trim()), ...descriptor].join(' '))
          .join(', ');
      else delete a.srcset;
    }
  }
  // A remote stylesheet is never loaded (the proxy serves images only; the reader's CSP refuses styles
  // from elsewhere): an empty <link /> loads nothing.
  if (tagName === 'link') return { tagName, attribs: {} };
  if (tagName === 'a' && a.href !== undefined) {
    // Links open outside the reader, without telling the site where they came from.
    a.target = '_blank';
    a.rel = 'noopener noreferrer';
  }
  return { tagName, attribs: a };
}

/** At-rules that only arrange what is already here; anything else (import, namespace…) goes. */
const allowedAtRules = new Set(['media', 'supports', 'keyframes', '-webkit-keyframes', 'font-face', 'page']);
const dangerousValue = /expression\s*\(|javascript:|vbscript:|-moz-binding|behavior\s*:/i;
const urlFunction = /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)"'\s]*))\s*\)/gi;
/** Functions that can fetch a bare string without url(). */
const fetchingFunction = /(^|[^a-z-])(image-set|-webkit-image-set|image|src|cross-fade|element)\s*\(/i;

function cleanCss(root: Root, ctx: Ctx): void {
  root.walkAtRules((rule) => {
    const name = rule.name.toLowerCase();
    // @import among them: remote stylesheets are never loaded.
    if (!allowedAtRules.has(name)) rule.remove();
  });
  root.walkDecls((decl) => {
    const prop = decl.prop.toLowerCase();
    // CSS escapes can spell url( or expression( in ways a filter cannot see: such values go.
    if (prop.includes('\\') || decl.value.includes('\\') || dangerousValue.test(`${prop}:${decl.value}`)) {
      decl.remove();
      return;
    }
    let refusedRemote = false;
    let dropped = false;
    const value = decl.value.replace(urlFunction, (_m, dq?: string, sq?: string, bare?: string) => {
      const url = classifyUrl(dq ?? sq ?? bare ?? '', ctx);
      if (url.kind === 'keep') return `url("${url.url!.replace(/"/g, '%22')}")`;
      if (url.kind === 'remote') {
        if (remoteAllowed(ctx)) return `url("${ctx.proxyUrl(url.url!)}")`;
        refusedRemote = true;
      } else dropped = true;
      return 'none';
    });
    if (refusedRemote || dropped) {
      decl.remove();
      return;
    }
    // image-set("https://…") and the like fetch a bare string, which cannot be pointed at the proxy.
    if (
      fetchingFunction.test(value) &&
      (!remoteAllowed(ctx) || /["']/.test(value.replace(urlFunction, '')))
    ) {
      decl.remove();
      return;
    }
    decl.value = value;
  });
}

function cleanStyleAttribute(style: string, ctx: Ctx): string {
  try {
    const root = postcss.parse(`x{${style}}`);
    cleanCss(root, ctx);
    const out: string[] = [];
    root.walkDecls((d) => void out.push(`${d.prop}:${d.value}${d.important ? ' !important' : ''}`));
    return out.join(';');
  } catch {
    return '';
  }
}

/**
 * sanitize-html passes <style> text through as written (it is raw text in HTML), so each block
 * in its output is parsed and cleaned here. The output escapes `<` everywhere else, so these
 * blocks are the only raw text left to find.
 */
function neutraliseStyleBlocks(html: string, ctx: Ctx): string {
  return html.replace(
    /(<style\b[^>]*>)([\s\S]*?)(<\/style>)/gi,
    (_m, open: string, css: string, close: string) => {
      let cleaned: string;
      try {
        const root = postcss.parse(css);
        cleanCss(root, ctx);
        cleaned = root.toString();
      } catch {
        cleaned = '';
      }
      return `${open}${cleaned.replace(/</g, '\\3c ')}${close}`;
    },
  );
}
