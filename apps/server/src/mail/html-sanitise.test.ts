import { describe, expect, it } from 'vitest';
import { apiRoutes, routeUrl } from '@mailroom/protocol';
import { htmlTooComplex, sanitiseMessageHtml } from './html-sanitise.js';

const logoUrl = routeUrl(apiRoutes.attachment, {
  params: { id: 2 },
  query: { message_uid: 7, folder_id: 3 },
});
const inlineUrl = (cid: string) => (cid === 'logo@x' ? logoUrl : undefined);
// Stands in for the signed proxy URL (image-proxy.test.ts checks the real one end to end).
const proxyUrl = (url: string) => `${apiRoutes.imageProxy.path}?url=${encodeURIComponent(url)}&sig=s`;
const proxied = (url: string) => `${apiRoutes.imageProxy.path}?url=${encodeURIComponent(url)}&amp;sig=s`;
const clean = (html: string, showImages = false) =>
  sanitiseMessageHtml(html, { showImages, proxyUrl, inlineUrl });

describe('sanitising message HTML', () => {
  it('removes scripts, event handlers, forms, frames, objects, base and meta refresh', () => {
    const { html } = clean(
      `<p onclick="x()">Hi<script>alert(1)</script></p><img src=x onerror=alert(1)>
       <form action="https://evil"><input name=p><button>Go</button></form>
       <iframe src="https://evil"></iframe><object data="x.swf"></object><embed src="x">
       <base href="https://evil/"><meta http-equiv="refresh" content="0;url=https://evil">
       <a href="javascript:alert(1)">j</a><a href="  JaVaScRiPt:alert(1)">k</a><svg><script>1</script></svg>
       <math><mi xlink:href="javascript:alert(1)">m</mi></math><textarea>secret</textarea>`,
    );
    expect(html).not.toMatch(
      /script|onclick|onerror|<form|<input|<button|<iframe|<object|<embed|<base|<meta|javascript|<svg|<math|<textarea|secret/i,
    );
    expect(html).toContain('<p>Hi</p>');
  });

  it('keeps layout: tables, inline styles, fonts, links opening in a new tab', () => {
    const { html, imagesBlocked } = clean(
      '<table width="600" cellpadding="4"><tr><td style="color: red; padding: 4px" bgcolor="#fff"><font face="Arial">x</font></td></tr></table><a href="https://example.com/a?b=1&amp;c=2">link</a>',
    );
    expect(html).toContain('<table width="600" cellpadding="4">');
    expect(html).toContain('style="color:red;padding:4px"');
    expect(html).toContain('<font face="Arial">');
    expect(html).toContain(
      'href="https://example.com/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer"',
    );
    expect(imagesBlocked).toBe(false);
  });

  it('leaves out remote images, srcset, backgrounds and CSS urls unless images are shown, then proxies them', () => {
    const source = `<img src="https://t.example/a.png" srcset="https://t.example/b.png 2x" alt="A">
      <td background="http://t.example/bg.png">x</td>
      <div style="background: url('https://t.example/c.png') no-repeat; color: blue">y</div>
      <img src="//t.example/proto.png"><img src="/relative.png">`;
    const blocked = clean(source);
    expect(blocked.imagesBlocked).toBe(true);
    expect(blocked.html).not.toMatch(/t\.example|relative\.png/);
    expect(blocked.html).toContain('alt="A"');
    expect(blocked.html).toContain('style="color:blue"');
    const shown = clean(source, true);
    expect(shown.imagesBlocked).toBe(false);
    expect(shown.html).toContain(`src="${proxied('https://t.example/a.png')}"`);
    expect(shown.html).toContain(`srcset="${proxied('https://t.example/b.png')} 2x"`);
    expect(shown.html).toContain(`background="${proxied('http://t.example/bg.png')}"`);
    expect(shown.html).toContain(`url(&quot;${proxied('https://t.example/c.png')}&quot;)`);
    // No remote URL is left for the browser to fetch itself.
    expect(shown.html.replace(/\/api\/v1\/image-proxy\?url=[^&"]+/g, '')).not.toMatch(/https?:|t\.example/);
    // Protocol-relative and relative URLs are never fetched.
    expect(shown.html).not.toMatch(/proto\.png|relative\.png/);
  });

  it('drops tracking pixels even when images are shown', () => {
    for (const showImages of [false, true]) {
      const { html, imagesBlocked } = clean(
        '<p>x</p><img src="https://track.example/o.gif" width="1" height="1"><img src="https://track.example/p.gif" style="display:none">',
        showImages,
      );
      expect(html).not.toContain('track');
      // Nothing that 'show images' would show: no reason to offer it.
      expect(imagesBlocked).toBe(false);
    }
  });

  it('neutralises external CSS: <link>, @import and url() in style blocks, escapes and expressions', () => {
    const source = `<link rel="stylesheet" href="https://css.example/a.css">
      <style>@import url("https://css.example/b.css"); @import 'https://css.example/c.css';
      .a { color: red; background-image: url(https://css.example/d.png) }
      .b { background: image-set("https://css.example/e.png" 1x) }
      .c { background: \\75 rl(https://css.example/f.png) }
      .d { width: expression(alert(1)) } .e { behavior: url(x.htc) }
      @font-face { font-family: X; src: url(https://css.example/g.woff) }
      @media (max-width: 600px) { .f { background: url('https://css.example/h.png') } .g { margin: 0 } }</style>`;
    const blocked = clean(source);
    expect(blocked.imagesBlocked).toBe(true);
    expect(blocked.html).not.toMatch(/css\.example|expression|behavior|\\75/);
    expect(blocked.html).toContain('color: red');
    expect(blocked.html).toContain('margin: 0');
    const shown = clean(source, true);
    // Stylesheets never load; images in the styles come through the proxy; image-set's bare string cannot.
    expect(shown.html).not.toMatch(/a\.css|b\.css|c\.css|e\.png|expression|behavior|@import/);
    expect(shown.html).toContain(`url("${proxyUrl('https://css.example/d.png')}")`);
    expect(shown.html).toContain(`url("${proxyUrl('https://css.example/h.png')}")`);
    expect(shown.html.replace(/\/api\/v1\/image-proxy\?url=[^&"]+/g, '')).not.toMatch(/https?:|css\.example/);
  });

  it('points cid: images at the attachment URL and drops unknown ones', () => {
    const { html, imagesBlocked } = clean(
      '<img src="cid:logo@x"><img src="cid:missing@x" alt="m"><div style="background:url(cid:logo@x)">z</div>',
    );
    const escaped = logoUrl.replaceAll('&', '&amp;');
    expect(html).toContain(`src="${escaped}"`);
    expect(html).toContain(`url(&quot;${escaped}&quot;)`);
    expect(html).toContain('<img alt="m" />');
    expect(imagesBlocked).toBe(false);
  });

  it('keeps data: images but not other data: URLs', () => {
    const { html } = clean(
      '<img src="data:image/png;base64,iVBORw0KGgo="><img src="data:text/html;base64,PHNjcmlwdD4=">',
    );
    expect(html).toContain('src="data:image/png;base64,iVBORw0KGgo="');
    expect(html).not.toContain('text/html');
  });

  it('does not let a title or head leak into the body text, and survives deep nesting', () => {
    const { html } = clean(
      `<html><head><title>Secret title</title></head><body>${'<div>'.repeat(5000)}deep${'</div>'.repeat(5000)}</body></html>`,
    );
    expect(html).not.toContain('Secret title');
    expect(html.length).toBeLessThan(5000 * 11 + 100);
  });
});

describe('bounded work', () => {
  it('calls very large or deeply nested bodies too complex, but not sloppy ordinary mail', () => {
    expect(htmlTooComplex('<div>'.repeat(600) + 'x')).toBe(true);
    expect(htmlTooComplex('<b>x</b>'.repeat(10) + 'x'.repeat(2 * 1024 * 1024))).toBe(true);
    expect(htmlTooComplex('<table>' + '<tr><td><p>unclosed<li>item<br>'.repeat(5000) + '</table>')).toBe(
      false,
    );
    expect(htmlTooComplex('<div><div><span>x</span></div></div>'.repeat(10_000))).toBe(false);
  });
});
