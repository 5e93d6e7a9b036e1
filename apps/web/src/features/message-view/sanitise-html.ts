import DOMPurify from 'dompurify';

/**
 * The second line of defence for message HTML (DESIGN §4): the server has sanitised it already, and the iframe it
 * goes into has no allow-scripts. DOMPurify strips scripts, event handlers, javascript: URLs, forms and frames
 * again, and every link opens in a new tab without access to this window.
 */
const purifier = DOMPurify(window);

purifier.addHook('afterSanitizeAttributes', (node) => {
  if (node.nodeName === 'A' || node.nodeName === 'AREA') {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});

const FORBID_TAGS = [
  'form',
  'input',
  'button',
  'select',
  'textarea',
  'iframe',
  'frame',
  'object',
  'embed',
  'meta',
  'link',
  'base',
];

export function sanitiseMessageHtml(html: string): string {
  return purifier.sanitize(html, {
    WHOLE_DOCUMENT: false,
    // Without it a leading <style> (a mail's head styles, kept by the server) is parsed into a head and lost.
    FORCE_BODY: true,
    FORBID_TAGS,
    FORBID_ATTR: ['srcdoc', 'formaction', 'action', 'ping'],
    ADD_ATTR: ['target'],
  });
}

/**
 * What the body may load: images from our origin (inline parts, and remote images through the server's image
 * proxy once the user or the image_display setting shows them) and data: URLs; nothing from anywhere else.
 */
function contentSecurityPolicy(origin: string): string {
  return [
    "default-src 'none'",
    `img-src ${origin} data:`,
    "style-src 'unsafe-inline'",
    'font-src data:',
    "form-action 'none'",
  ].join('; ');
}

/**
 * The iframe document: the sanitised body under a restrictive CSP (a refresh or remote fetch that slipped past both
 * sanitisers still loads nothing), links opening in a new tab, and a calm default look for plain messages.
 * No referrer for what the body loads (the image proxy never passes one on anyway).
 */
export function messageDocument(bodyHtml: string, options: { origin: string }): string {
  const csp = contentSecurityPolicy(options.origin);
  return `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${csp}"><meta name="referrer" content="no-referrer"><base target="_blank"><style>html,body{margin:0;padding:0}body{font:14px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;color:#1b1e23;overflow-wrap:anywhere;overflow-y:hidden}img{max-width:100%;height:auto}table{max-width:100%}pre{white-space:pre-wrap}</style></head><body>${sanitiseMessageHtml(bodyHtml)}</body></html>`;
}

/** base64 of the body as the API sends it, decoded as UTF-8. */
export function decodeContent(base64: string): string {
  try {
    const binary = atob(base64);
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    return new TextDecoder().decode(bytes);
  } catch {
    return '';
  }
}

export type TextPart = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

const URL_PATTERN = /\bhttps?:\/\/[^\s<>"'()]+[^\s<>"'().,;:!?]/gi;

/** Plain text with its http(s) links made clickable; nothing else becomes markup. */
export function linkifyText(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const start = match.index;
    if (start > last) parts.push({ kind: 'text', text: text.slice(last, start) });
    parts.push({ kind: 'link', text: match[0], href: match[0] });
    last = start + match[0].length;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}
