import { describe, expect, it } from 'vitest';
import { decodeContent, linkifyText, messageDocument, sanitiseMessageHtml } from './sanitise-html';

describe('message HTML', () => {
  it('removes scripts, handlers, javascript: links, forms and frames', () => {
    const html = sanitiseMessageHtml(
      `<p onclick="alert(1)">Hi</p><script>alert(2)</script><a href="javascript:alert(3)">x</a>` +
        `<form action="https://evil.test"><input name="p"></form><iframe src="https://evil.test"></iframe>` +
        `<svg><script>alert(4)</script><animate onbegin="alert(5)"/></svg><img src=x onerror="alert(6)">` +
        `<meta http-equiv="refresh" content="0;url=https://evil.test">`,
    );
    expect(html).not.toMatch(
      /script|onclick|onerror|onbegin|javascript:|<form|<input|<iframe|<meta|evil\.test/i,
    );
    expect(html).toContain('Hi');
  });

  it("keeps a mail's leading style block (its head styles) instead of dropping it with a parsed head", () => {
    const html = sanitiseMessageHtml('<style>.note{color:#555}</style><p class="note">Hi</p>');
    expect(html).toContain('<style>.note{color:#555}</style>');
    expect(html).toContain('<p class="note">Hi</p>');
  });

  it('opens links in a new tab without access to this window', () => {
    const html = sanitiseMessageHtml('<a href="https://example.test/page">link</a>');
    expect(html).toContain('target="_blank"');
    expect(html).toContain('rel="noopener noreferrer"');
  });

  it('puts the body under a CSP that loads images only from our origin (the image proxy) and data:', () => {
    const html = messageDocument('<p>x</p>', { origin: 'https://mail.test' });
    expect(html).toContain("default-src 'none'");
    expect(html).toContain('img-src https://mail.test data:;');
    expect(html).toContain('font-src data:;');
    expect(html).not.toMatch(/https:(?!\/\/mail\.test)|http:/);
  });

  it('decodes base64 bodies as UTF-8', () => {
    const text = 'Привет, мир';
    const base64 = btoa(String.fromCharCode(...new TextEncoder().encode(text)));
    expect(decodeContent(base64)).toBe(text);
    expect(decodeContent('%%%')).toBe('');
  });

  it('makes http(s) links in plain text clickable and nothing else', () => {
    expect(linkifyText('See https://example.test/a?b=1. And <b>bold</b> javascript:alert(1)')).toEqual([
      { kind: 'text', text: 'See ' },
      { kind: 'link', text: 'https://example.test/a?b=1', href: 'https://example.test/a?b=1' },
      { kind: 'text', text: '. And <b>bold</b> javascript:alert(1)' },
    ]);
  });
});
