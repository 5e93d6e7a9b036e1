import { afterAll, describe, expect, it } from 'vitest';
import { runOnMessage, type FilterMessage } from './message-host.js';
import { closeSievePool } from './sieve-pool.js';

afterAll(() => closeSievePool());

/** A large message given by its head, counting how often its body is read. */
function largeMessage(): FilterMessage & { bodyReads: number } {
  const head = Buffer.from(
    'From: billing@shop.example\r\nSubject: Your invoice\r\n\r\nThe start of a long body',
  );
  const body = Buffer.concat([head, Buffer.from(' and then the word needle-in-body.\r\n')]);
  const message = {
    size: 50_000_000,
    head,
    bodyReads: 0,
    body: () => {
      message.bodyReads++;
      return Promise.resolve(body);
    },
  };
  return message;
}

const context = {
  envelopeFrom: 'billing@shop.example',
  envelopeTo: 'me@mailroom.test',
  mailboxes: async () => [],
};

describe('filters on a large message', () => {
  it('a script that tests only the header never reads the body', async () => {
    const message = largeMessage();
    const result = await runOnMessage(
      { source: 'require "imap4flags"; if header :contains "subject" "invoice" { addflag "\\\\Flagged"; }' },
      message,
      context,
    );
    expect(result?.status).toBe('success');
    expect(result?.implicitKeep?.flags).toEqual(['\\Flagged']);
    expect(message.bodyReads).toBe(0);
  });

  it('a body test reads the body once and sees it; the size test sees the whole size', async () => {
    const message = largeMessage();
    const result = await runOnMessage(
      {
        source:
          'require ["body", "imap4flags"]; if allof (body :contains "needle-in-body", size :over 40M) { addflag "\\\\Flagged"; }',
      },
      message,
      context,
    );
    expect(result?.implicitKeep?.flags).toEqual(['\\Flagged']);
    expect(message.bodyReads).toBe(1);
  });
});
