/**
 * The messages of the differential test: English and Russian, RFC 2047 encoded words, windows-1251,
 * multipart, list mail, auto-replies and a bounce. Each is the raw bytes sieve-test and our host read.
 */

/** windows-1251 bytes of a string (Cyrillic and ASCII only). */
export function cp1251(text: string): Buffer {
  const out: number[] = [];
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (c < 0x80) out.push(c);
    else if (c >= 0x410 && c <= 0x44f) out.push(c - 0x410 + 0xc0);
    else if (c === 0x401) out.push(0xa8);
    else if (c === 0x451) out.push(0xb8);
    else throw new Error(`not in windows-1251 here: ${ch}`);
  }
  return Buffer.from(out);
}

const b64 = (b: Buffer | string) => Buffer.from(b).toString('base64');
const bWord = (charset: string, bytes: Buffer | string) => `=?${charset}?B?${b64(bytes)}?=`;
function qp(bytes: Buffer): string {
  let out = '';
  let line = 0;
  for (const byte of bytes) {
    const piece =
      (byte >= 33 && byte <= 126 && byte !== 61) || byte === 32
        ? String.fromCharCode(byte)
        : `=${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    if (line + piece.length > 72) {
      out += '=\r\n';
      line = 0;
    }
    out += piece;
    line += piece.length;
  }
  return out;
}

function message(headers: string[], body: string | Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(headers.join('\r\n') + '\r\n\r\n', 'utf8'),
    Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8'),
  ]);
}

export interface TestMessage {
  name: string;
  raw: Buffer;
}

export const messages: TestMessage[] = [
  {
    name: 'invoice-en',
    raw: message(
      [
        'Return-Path: <billing@acme.example>',
        'Received: from mx.acme.example by mail.example.com; Mon, 23 Nov 2026 09:15:02 +0000',
        'Received: from app.acme.example by mx.acme.example; Mon, 23 Nov 2026 09:14:58 +0100',
        'Date: Mon, 23 Nov 2026 10:14:55 +0100',
        'From: "ACME Billing" <billing@acme.example>',
        'To: Ann Lee <ann.lee+invoices@example.com>, bob@example.com',
        'Cc: accounts@example.com',
        'Subject: Invoice 2026-11 for ACME account 4471',
        'Message-ID: <inv-4471-202611@acme.example>',
        'X-Spam-Score: 2',
        'X-Mailer: BillingBot 3.1',
        'MIME-Version: 1.0',
        'Content-Type: text/plain; charset=utf-8',
        'Content-Transfer-Encoding: 7bit',
      ],
      'Dear customer,\r\n\r\nYour invoice for November is attached. Amount due: 120.50 EUR.\r\nPay by 2026-12-07.\r\n\r\nACME Billing\r\n',
    ),
  },
  {
    name: 'russian-utf8',
    raw: message(
      [
        'Return-Path: <ivan@pochta.example>',
        'Date: Tue, 24 Nov 2026 08:05:00 +0300',
        `From: ${bWord('UTF-8', 'Иван Петров')} <ivan@pochta.example>`,
        'To: me@example.com',
        `Subject: ${bWord('UTF-8', 'Встреча в пятницу')}`,
        'Message-ID: <a1b2@pochta.example>',
        'MIME-Version: 1.0',
        'Content-Type: text/plain; charset=UTF-8',
        'Content-Transfer-Encoding: 8bit',
      ],
      'Привет!\r\n\r\nВстречаемся в пятницу в 15:00 у входа.\r\nИван\r\n',
    ),
  },
  {
    name: 'russian-cp1251',
    raw: message(
      [
        'Date: Wed, 25 Nov 2026 13:45:10 +0300',
        `From: ${bWord('windows-1251', cp1251('Бухгалтерия'))} <buh@firma.example>`,
        'To: "Me" <me@example.com>',
        `Subject: ${bWord('windows-1251', cp1251('Счёт на оплату'))} =?windows-1251?Q?_=B9_15?=`,
        'MIME-Version: 1.0',
        'Content-Type: text/plain; charset=windows-1251',
        'Content-Transfer-Encoding: quoted-printable',
      ],
      qp(cp1251('Добрый день. Счёт номер 15 на сумму 3400 рублей.')) + '\r\n',
    ),
  },
  {
    name: 'alternative-html',
    raw: message(
      [
        'Date: Thu, 26 Nov 2026 18:00:00 -0500',
        'From: News Desk <news@paper.example>',
        'To: reader@example.com',
        'Subject: =?UTF-8?Q?Today=E2=80=99s_headlines?=',
        'MIME-Version: 1.0',
        'Content-Type: multipart/alternative; boundary="alt-1"',
      ],
      [
        '--alt-1',
        'Content-Type: text/plain; charset=utf-8',
        '',
        'Markets rise. Weather: sunny.',
        '--alt-1',
        'Content-Type: text/html; charset=utf-8',
        'Content-Transfer-Encoding: quoted-printable',
        '',
        '<html><body><p>Markets <b>rise</b>.</p><p>Weather: sunny &amp; warm</p></body></html>',
        '--alt-1--',
        '',
      ].join('\r\n'),
    ),
  },
  {
    name: 'mixed-attachment',
    raw: message(
      [
        'Date: Fri, 27 Nov 2026 11:11:11 +0000',
        'From: Carol <carol@work.example>',
        'To: team@work.example, me@example.com',
        'Subject: Report Q4 (draft)',
        'MIME-Version: 1.0',
        'Content-Type: multipart/mixed; boundary="mix"',
      ],
      [
        'This is a multi-part message in MIME format.',
        '--mix',
        'Content-Type: text/plain; charset=us-ascii',
        '',
        'Hi all, the draft report is attached. Comments by Monday please.',
        '--mix',
        'Content-Type: application/pdf; name="report.pdf"',
        'Content-Disposition: attachment; filename="report.pdf"',
        'Content-Transfer-Encoding: base64',
        '',
        b64('%PDF-1.4 fake report body with the word budget'),
        '--mix',
        'Content-Type: text/plain; charset=utf-8',
        'Content-Transfer-Encoding: base64',
        '',
        b64('Примечание: budget numbers are preliminary.'),
        '--mix--',
        '',
      ].join('\r\n'),
    ),
  },
  {
    name: 'mailing-list',
    raw: message(
      [
        'Return-Path: <dev-bounces+me=example.com@lists.example.org>',
        'Date: Sat, 28 Nov 2026 07:30:00 +0000',
        'From: Dave Dev <dave@hackers.example>',
        'To: dev@lists.example.org',
        'Subject: [dev] Re: Release 2.0 planning',
        'List-Id: Developers <dev.lists.example.org>',
        'List-Unsubscribe: <mailto:dev-leave@lists.example.org>',
        'List-Post: <mailto:dev@lists.example.org>',
        'Precedence: list',
        'Sender: dev-bounces@lists.example.org',
        'In-Reply-To: <rel2@hackers.example>',
        'MIME-Version: 1.0',
        'Content-Type: text/plain; charset=utf-8; format=flowed',
      ],
      'I think we should ship on Tuesday.\r\n\r\n-- \r\nDave\r\n_______________________________________________\r\ndev mailing list\r\n',
    ),
  },
  {
    name: 'auto-reply',
    raw: message(
      [
        'Date: Sun, 29 Nov 2026 22:00:00 +0100',
        'From: Eve <eve@holiday.example>',
        'To: me@example.com',
        'Subject: Automatic reply: Meeting notes',
        'Auto-Submitted: auto-replied',
        'X-Autoreply: yes',
        'Precedence: bulk',
        'MIME-Version: 1.0',
        'Content-Type: text/plain; charset=utf-8',
      ],
      'I am out of the office until 7 December with limited access to email.\r\n',
    ),
  },
  {
    name: 'bounce',
    raw: message(
      [
        'Date: Mon, 30 Nov 2026 03:03:03 +0000',
        'From: Mail Delivery System <MAILER-DAEMON@mx.example.net>',
        'To: me@example.com',
        'Subject: Undelivered Mail Returned to Sender',
        'Auto-Submitted: auto-generated',
        'MIME-Version: 1.0',
        'Content-Type: multipart/report; report-type=delivery-status; boundary="rep"',
      ],
      [
        '--rep',
        'Content-Type: text/plain; charset=us-ascii',
        '',
        'Your message could not be delivered to nobody@nowhere.example.',
        '--rep',
        'Content-Type: message/delivery-status',
        '',
        'Final-Recipient: rfc822; nobody@nowhere.example',
        'Status: 5.1.1',
        '--rep',
        'Content-Type: message/rfc822',
        '',
        'From: me@example.com',
        'To: nobody@nowhere.example',
        'Subject: Hello there',
        '',
        'The original text of the lost message.',
        '--rep--',
        '',
      ].join('\r\n'),
    ),
  },
  {
    name: 'minimal',
    raw: message(['From: someone@example.net', 'To: undisclosed-recipients:;'], 'short\r\n'),
  },
  {
    name: 'spam-scored',
    raw: message(
      [
        'Date: 1 Dec 2026 12:00 +0000',
        'From: "WIN BIG" <promo@lucky.example>',
        'Reply-To: claims@lucky.example',
        'To: me+spam@example.com',
        'Bcc: hidden@example.com',
        'Subject: =?utf-8?q?You_have_WON_=F0=9F=8E=89?= a prize!!!',
        'X-Spam-Score: 11',
        'X-Spam-Flag: YES',
        'X-Priority: 1',
        'MIME-Version: 1.0',
        'Content-Type: text/html; charset=utf-8',
      ],
      '<html><body><h1>CONGRATULATIONS</h1><p>Click <a href="http://lucky.example/x">here</a> to claim $1000000.</p></body></html>\r\n',
    ),
  },
  {
    name: 'folded-headers',
    raw: message(
      [
        'Date: Wed, 02 Dec 2026 16:20:00 +0530',
        'From: Priya <priya@example.in>',
        'To: me@example.com,',
        '  "Team Lead" <lead+india@example.in>',
        'Subject: A rather long subject line that is folded',
        '  across two lines for testing',
        'X-Tags: alpha, beta,',
        '\tgamma',
        'Content-Type: text/plain',
      ],
      'Folded header test body. Namaste.\r\n',
    ),
  },
  {
    name: 'odd-addresses',
    raw: message(
      [
        'Date: Fri, 04 Dec 2026 23:59:59 -1000',
        'Date: Sat, 05 Dec 2026 01:00:00 +0000',
        'From: "Ann (test)" <ann@x.example> (comment)',
        'Sender: MAILER-DAEMON',
        'To: Team: a@b.example, "Quoted, Name" <q@c.example>;, plain@d.example',
        'Cc: <route@d.example>, "Bob" <BOB+Lists@D.Example>',
        'Reply-To: ann@x.example (Ann Lee)',
        'X-Original-To: me+odd@example.com',
        'Subject: =?iso-8859-1?q?caf=E9?= and =?utf-8?b?0LrQvtGE0LU=?=   =?utf-8?b?INC4INGH0LDQuQ==?=',
        'X-Spam-Score: 007',
        'Content-Type: text/plain; charset=iso-8859-1',
        'Content-Transfer-Encoding: quoted-printable',
      ],
      "Caf=E9 au lait, s'il vous pla=EEt.\r\n",
    ),
  },
  {
    name: 'russian-koi-mixed',
    raw: message(
      [
        'Date: Thu, 03 Dec 2026 09:00:00 +0300',
        `From: =?UTF-8?Q?=D0=9E=D0=BB=D1=8C=D0=B3=D0=B0?= <olga@example.ru>`,
        'To: me@example.com',
        `Subject: Re: ${bWord('UTF-8', 'отчёт')} ${bWord('UTF-8', 'за ноябрь')}`,
        'MIME-Version: 1.0',
        'Content-Type: multipart/alternative; boundary=b2',
      ],
      [
        '--b2',
        'Content-Type: text/plain; charset=windows-1251',
        'Content-Transfer-Encoding: base64',
        '',
        b64(cp1251('Отчёт готов, смотрите вложение.')),
        '--b2',
        'Content-Type: text/html; charset=utf-8',
        'Content-Transfer-Encoding: base64',
        '',
        b64('<div>Отчёт <i>готов</i>, смотрите вложение.</div>'),
        '--b2--',
        '',
      ].join('\r\n'),
    ),
  },
  {
    // MIME edge cases (the delivery host's own walker, apps/server/src/filters/mime-leaves.ts, checked against
    // Pigeonhole): an inner multipart left unclosed and ended by its parent's delimiter, a delimiter with white space
    // after it, a digest whose parts default to message/rfc822, a part with no header, an empty part.
    name: 'mime-edges',
    raw: message(
      [
        'Date: Fri, 04 Dec 2026 10:00:00 +0000',
        'From: digest@lists.example.org',
        'To: me@example.com',
        'Subject: Weekly digest',
        'MIME-Version: 1.0',
        'Content-Type: multipart/mixed; boundary="outer"',
      ],
      [
        'preamble words',
        '--outer  ',
        'Content-Type: multipart/alternative; boundary=inner',
        '',
        '--inner',
        '',
        'inner plain words',
        '--outer',
        'Content-Type: multipart/digest; boundary=dg',
        '',
        '--dg',
        '',
        'Subject: digest item',
        'Content-Type: text/plain; charset=utf-8',
        '',
        'digest item words',
        '--dg--',
        '--outer',
        '--outer',
        '',
        'headerless part words',
        '--outer-- ',
        'epilogue words',
        '',
      ].join('\r\n'),
    ),
  },
];
