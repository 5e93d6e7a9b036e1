import { describe, expect, it } from 'vitest';
import { COMPOSE_MODE } from '@mailroom/protocol';
import { htmlToPlain, plainToHtml } from './body-text';
import { convertBody, initialBody, signatureBlock, swapSignature, wantsSignature } from './compose-body';

describe('when a signature is added', () => {
  it.each([
    ['always', [true, true, true, true]],
    ['response', [false, true, true, true]],
    ['new_message', [true, false, false, false]],
  ] as const)('signature_add %s', (setting, expected) => {
    const modes = [COMPOSE_MODE.NEW, COMPOSE_MODE.REPLY, COMPOSE_MODE.REPLY_ALL, COMPOSE_MODE.FORWARD];
    expect(modes.map((mode) => wantsSignature(mode, setting))).toEqual(expected);
  });
});

describe('the signature block', () => {
  it('comes after the separator ---', () => {
    expect(signatureBlock('Ann Lee\nMailroom', 'html')).toBe('<p>---</p><p>Ann Lee<br>Mailroom</p>');
    expect(signatureBlock('Ann Lee', 'plain')).toBe('---\nAnn Lee');
  });

  it('loses its HTML in plain-text mode', () => {
    expect(
      signatureBlock('<p><b>Ann</b> <i>Lee</i></p><p><a href="https://x.org">x.org</a></p>', 'plain'),
    ).toBe('---\nAnn Lee\n\nx.org <https://x.org/>'.replace('https://x.org/', 'https://x.org'));
  });

  it('is nothing when the profile has no signature', () => {
    expect(signatureBlock('  ', 'html')).toBe('');
  });
});

const quote = {
  header: ['On 20 Nov 2026, Bob <bob@example.org> wrote:'],
  body: '<p>Lunch <b>at noon</b>?</p>',
  bodyFormat: 'html' as const,
};

describe('the first body of a compose window', () => {
  it('a new message: a line to write on, then the signature', () => {
    expect(initialBody({ format: 'html', signature: 'Ann', signatureAboveQuote: true, quote: null })).toBe(
      '<p></p><p>---</p><p>Ann</p>',
    );
  });

  it('a reply quotes the original under its header line, the signature above the quote', () => {
    expect(initialBody({ format: 'html', signature: 'Ann', signatureAboveQuote: true, quote })).toBe(
      '<p></p><p>---</p><p>Ann</p><p>On 20 Nov 2026, Bob &#60;bob@example.org&#62; wrote:</p>' +
        '<blockquote><p>Lunch <b>at noon</b>?</p></blockquote>',
    );
  });

  it('signature_reply off puts the signature under the quote', () => {
    const body = initialBody({ format: 'plain', signature: 'Ann', signatureAboveQuote: false, quote });
    expect(body).toBe('\n\nOn 20 Nov 2026, Bob <bob@example.org> wrote:\n> Lunch at noon?\n\n---\nAnn');
  });

  it('a plain-text original is quoted line by line', () => {
    const body = initialBody({
      format: 'plain',
      signature: '',
      signatureAboveQuote: true,
      quote: { header: ['Bob wrote:'], body: 'one\r\n\r\ntwo', bodyFormat: 'plain' },
    });
    expect(body).toBe('\n\nBob wrote:\n> one\n>\n> two');
  });
});

describe('swapping the signature when From changes', () => {
  it('replaces the block the window put there', () => {
    const body = '<p>Hi</p><p>---</p><p>Ann</p><blockquote><p>---</p><p>Ann</p></blockquote>';
    expect(swapSignature(body, '<p>---</p><p>Ann</p>', '<p>---</p><p>Ann Lee</p>')).toBe(
      '<p>Hi</p><p>---</p><p>Ann</p><blockquote><p>---</p><p>Ann Lee</p></blockquote>',
    );
  });

  it('leaves an edited signature alone', () => {
    expect(
      swapSignature('<p>---</p><p>Annie</p>', '<p>---</p><p>Ann</p>', '<p>---</p><p>Bob</p>'),
    ).toBeNull();
  });
});

describe('plain text and HTML', () => {
  it('HTML becomes text with lists, quotes and links kept readable', () => {
    expect(
      htmlToPlain(
        '<p>Hello <b>Bob</b>,</p><ul><li>one</li><li>two</li></ul><ol><li>first</li></ol>' +
          '<blockquote><p>quoted</p><p>more</p></blockquote><p><a href="https://x.org/a">here</a><br>bye</p>',
      ),
    ).toBe('Hello Bob,\n\n- one\n- two\n\n1. first\n\n> quoted\n>\n> more\n\nhere <https://x.org/a>\nbye');
  });

  it('never lets markup through, even from a script', () => {
    expect(htmlToPlain('<p>a<script>alert(1)</script><img src=x onerror=alert(1)>b</p>')).toBe('ab');
  });

  it('text becomes escaped paragraphs', () => {
    expect(plainToHtml('a < b\nc\n\nd')).toBe('<p>a &#60; b<br>c</p><p>d</p>');
  });

  it('a round trip keeps the words', () => {
    expect(convertBody(convertBody('Hi Bob\n\nSee you', 'html'), 'plain')).toBe('Hi Bob\n\nSee you');
  });
});

describe('plain text of what TipTap writes', () => {
  it('keeps list items with paragraphs tight and a line break as one new line', () => {
    expect(htmlToPlain('<ul><li><p>one</p></li><li><p>two</p></li></ul><p>a<br></p><p>b</p>')).toBe(
      '- one\n- two\n\na\n\nb',
    );
  });
});
