import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runSieveTest, sieveHostFor } from '../../src/filters/index.js';

const run = promisify(execFile);
const cli = new URL('../../src/cli.ts', import.meta.url).pathname;

/** windows-1251 bytes of Cyrillic/ASCII text. */
function cp1251(text: string): Buffer {
  return Buffer.from(
    [...text].map((ch) => {
      const c = ch.codePointAt(0)!;
      return c < 0x80 ? c : c === 0x451 ? 0xb8 : c - 0x410 + 0xc0;
    }),
  );
}

const multipart = Buffer.concat([
  Buffer.from(
    [
      'Return-Path: <billing@acme.example>',
      'From: =?UTF-8?B?0JHRg9GF0LPQsNC70YLQtdGA0LjRjw==?= <buh@firma.example>',
      'To: me@example.com',
      'Subject: =?windows-1251?B?' + cp1251('Счёт').toString('base64') + '?=',
      'Content-Type: multipart/mixed; boundary="b"',
      '',
      '--b',
      'Content-Type: text/plain; charset=windows-1251',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      '',
    ].join('\r\n'),
  ),
  Buffer.from(
    [...cp1251('Оплатите счёт')].map((b) => `=${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  ),
  Buffer.from(
    [
      '',
      '--b',
      'Content-Type: message/rfc822',
      '',
      'From: a@example.org',
      'Subject: inner',
      '',
      'inner text',
      '--b',
      'Content-Type: application/pdf',
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from('%PDF budget').toString('base64'),
      '--b--',
      '',
    ].join('\r\n'),
  ),
]);

describe('the Sieve host over a raw message (filters)', () => {
  it('gives header fields in order, the undecoded body and each leaf part decoded, embedded messages entered', async () => {
    const host = await sieveHostFor(multipart, {
      envelopeFrom: 'billing@acme.example',
      envelopeTo: 'me@example.com',
    });
    expect(host.headers().map((h) => h.name)).toEqual([
      'Return-Path',
      'From',
      'To',
      'Subject',
      'Content-Type',
    ]);
    expect(host.rawBody()).toContain('Content-Transfer-Encoding: quoted-printable');
    expect(host.bodyParts()).toEqual([
      { contentType: 'text/plain', text: 'Оплатите счёт' },
      { contentType: 'text/plain', text: 'inner text' },
      { contentType: 'application/pdf', text: '%PDF budget' },
    ]);
    expect(host.size()).toBe(multipart.length);
    expect(host.mailboxExists('Anything')).toBe(true);
  });

  it('a script matches decoded windows-1251 headers and bodies', async () => {
    const script = `require ["fileinto","body","imap4flags"];
      if allof (header :contains "subject" "Счёт", body :text :contains "Оплатите", body :content "application/pdf" :contains "budget") {
        fileinto :flags "\\\\Seen" "Счета";
      }`;
    expect(await runSieveTest({ script, message: multipart, timeLimitMs: null })).toEqual({
      lines: ['status=success', 'fileinto "Счета" flags=\\Seen'],
      exitCode: 0,
    });
  });

  it('a run past its time limit fails with "the filter took too long", as it would on the server', async () => {
    const script = `require "body"; if body :raw :matches "${'*a'.repeat(50)}b" { discard; }`;
    const message = Buffer.from(`Subject: long\r\n\r\n${'a'.repeat(2_000_000)}`);
    expect(await runSieveTest({ script, message, timeLimitMs: 5 })).toEqual({
      lines: [
        'status=failed',
        'error "line 1: the filter took too long (more than 5 ms) and was stopped"',
        'implicit-keep',
      ],
      exitCode: 1,
    });
  });

  it('the envelope sender defaults to the Return-Path and can be given', async () => {
    const script = 'require "envelope"; if envelope :domain "from" "acme.example" { discard; }';
    expect((await runSieveTest({ script, message: multipart, timeLimitMs: null })).lines).toContain(
      'discard',
    );
    expect(
      (await runSieveTest({ script, message: multipart, from: 'x@other.example', timeLimitMs: null })).lines,
    ).not.toContain('discard');
  });
});

describe('mailroom sieve test', () => {
  async function mailroom(args: string[]) {
    return run(
      process.execPath,
      ['--conditions=@mailroom/source', '--import', 'tsx', cli, 'sieve', 'test', ...args],
      {
        env: { ...process.env, LOG_LEVEL: 'silent' },
        timeout: 60_000,
      },
    ).then(
      (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
      (err: { code: number; stdout: string; stderr: string }) => err,
    );
  }

  it('prints the outcome one line each and exits 0, 1 or 2 for success, runtime failure or compile error', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-sieve-'));
    const message = path.join(dir, 'm.eml');
    await fs.writeFile(message, multipart);
    const script = async (name: string, text: string) => {
      const file = path.join(dir, name);
      await fs.writeFile(file, text);
      return file;
    };
    const ok = await mailroom([
      '--script',
      await script('ok.sieve', 'require ["copy"]; redirect :copy "boss@example.org";'),
      '--message',
      message,
      '--to',
      'me@example.com',
    ]);
    expect(ok).toMatchObject({
      code: 0,
      stdout: 'status=success\nredirect "boss@example.org" copy\nimplicit-keep\n',
    });

    const failed = await mailroom([
      '--script',
      await script(
        'fail.sieve',
        'redirect "a@x.example";\nredirect "b@x.example";\nredirect "c@x.example";\nredirect "d@x.example";\nredirect "e@x.example";',
      ),
      '--message',
      message,
    ]);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toBe(
      'status=failed\nerror "line 5: total number of redirects exceeds the limit of 4"\nimplicit-keep\n',
    );

    const broken = await mailroom([
      '--script',
      await script('bad.sieve', 'keep;\nfileinto "x";'),
      '--message',
      message,
    ]);
    expect(broken.code).toBe(2);
    expect(broken.stdout).toBe(
      'status=compile-error\nerror "line 2: the fileinto command needs require \\"fileinto\\""\n',
    );

    const missing = await mailroom(['--script', path.join(dir, 'none.sieve'), '--message', message]);
    expect(missing.code).toBe(66);
    expect(missing.stderr).toMatch(/Cannot read the script/);
    await fs.rm(dir, { recursive: true });
  }, 120_000);
});
