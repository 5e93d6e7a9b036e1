import sanitizeHtml from 'sanitize-html';

// A profile's signature is HTML the compose editor wrote, or that was pasted into it, and it goes out in every
// message from that profile. What is kept is what a signature needs: text formatting, lists, quotes, simple
// tables, links (web, mail, phone) and images from https or an inline part (cid:); never scripts, handlers, forms,
// frames, styles that position or load anything, or images that a reader's client would fetch over plain http.

const colour = /^(#[0-9a-f]{3,8}|rgba?\([\d\s.,%]+\)|[a-z]{3,20})$/i;
const length = /^(0|[\d.]+(px|em|rem|pt|%))$/i;

const allowedStyles: sanitizeHtml.IOptions['allowedStyles'] = {
  '*': {
    color: [colour],
    'background-color': [colour],
    'font-weight': [/^(normal|bold|bolder|lighter|[1-9]00)$/],
    'font-style': [/^(normal|italic|oblique)$/],
    'font-size': [length, /^(x{0,2}-?small|medium|x{0,2}-?large|smaller|larger)$/],
    'font-family': [/^[\w\s,"'-]{1,100}$/],
    'text-decoration': [/^(none|underline|line-through|overline)( [a-z-]+)*$/],
    'text-align': [/^(left|right|center|justify|start|end)$/],
    'line-height': [length, /^[\d.]+$/],
    'vertical-align': [/^(baseline|top|middle|bottom|sub|super)$/],
    margin: [/^(0|[\d.]+(px|em|rem|pt))( (0|[\d.]+(px|em|rem|pt))){0,3}$/i],
    padding: [/^(0|[\d.]+(px|em|rem|pt))( (0|[\d.]+(px|em|rem|pt))){0,3}$/i],
    width: [length],
    height: [length],
  },
};

const signatureOptions: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'div',
    'span',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'strike',
    'del',
    'sub',
    'sup',
    'small',
    'big',
    'font',
    'a',
    'img',
    'ul',
    'ol',
    'li',
    'blockquote',
    'hr',
    'table',
    'thead',
    'tbody',
    'tr',
    'td',
    'th',
  ],
  allowedAttributes: {
    '*': ['style', 'align', 'dir', 'title'],
    a: ['href', 'target', 'rel'],
    img: ['src', 'alt', 'width', 'height'],
    font: ['color', 'size', 'face'],
    td: ['colspan', 'rowspan', 'valign', 'width'],
    th: ['colspan', 'rowspan', 'valign', 'width'],
    table: ['cellpadding', 'cellspacing', 'border', 'width'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['https', 'cid'] },
  allowProtocolRelative: false,
  allowedStyles,
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'title', 'template'],
  nestingLimit: 50,
  transformTags: {
    // A link in a signature opens apart from the message, and tells the site nothing of where it came from.
    a: (tagName, attribs) => ({
      tagName,
      attribs: { ...attribs, target: '_blank', rel: 'noopener noreferrer' },
    }),
  },
  exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
};

/** The signature as it is stored: only what a signature needs survives (see above); surrounding space trimmed. */
export function sanitiseSignature(html: string): string {
  return sanitizeHtml(html, signatureOptions).trim();
}
