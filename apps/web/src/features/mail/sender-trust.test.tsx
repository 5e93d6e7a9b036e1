import { describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { uncheckedTrust, type Mail, type SenderTrust } from '@mailroom/protocol';
import { folder, listItem } from '../../test/fixtures';
import { answerEach, fakeApi, mailActionRoutes } from '../../test/fake-api';
import { renderAt, setUpScreenTests } from '../../test/render-app';

setUpScreenTests();

const folders = [folder(11, 'INBOX', 'inbox', { total: 1 })];

/** The reader shows who sent a message as the checks on arrival said (issue 30). */
function serve(trust: SenderTrust, from = { name: 'Wallet Support', email: 'support@shop.example' }) {
  const row = listItem(4, { fields: { ...listItem(4).fields, from: [from] } });
  fakeApi(
    {
      ...answerEach(mailActionRoutes, { ok: true }),
      folderMessages: () => ({ messages: [row], total: 1, all: 1 }),
      message: () => {
        const message: Mail = {
          ...row,
          content: btoa('Hello'),
          content_type: 'text/plain',
          attachments: [],
          images_blocked: false,
          message_id: null,
          trust,
        };
        return { message };
      },
    },
    { shell: { folders } },
  );
  renderAt('/mail/folder/all/11/1/4');
}

const results = { spf: 'pass', dkim: 'pass', dmarc: 'pass', arc: 'none' } as const;

describe('sender trust in the reader', () => {
  it('a verified sender is shown plainly, with its details on request', async () => {
    serve({ ...uncheckedTrust, status: 'verified', domain: 'shop.example', results });
    expect(await screen.findByText('Verified', undefined, { timeout: 5_000 })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Details' }));
    expect(screen.getByText('DMARC').nextSibling?.textContent).toBe('pass');
  });

  it('an unverified sender gets the translated warning, and where a reply really goes', async () => {
    serve({
      ...uncheckedTrust,
      status: 'unverified',
      domain: 'shop.example',
      reply_to: 'collect@elsewhere.example',
      results: { ...results, dmarc: 'fail', dkim: 'none', spf: 'fail' },
    });
    expect(
      await screen.findByText('We could not verify that this message comes from shop.example.', undefined, {
        timeout: 5_000,
      }),
    ).toBeTruthy();
    expect(screen.getByText('Replies go to collect@elsewhere.example.')).toBeTruthy();
    expect(screen.queryByText('Verified')).toBeNull();
  });

  it('an impostor of a protected domain is flagged as an alert and never marked verified', async () => {
    serve(
      {
        ...uncheckedTrust,
        status: 'verified',
        domain: 'mai1room.test',
        impostor: { imitates: 'mailroom.test', reason: 'lookalike_domain' },
        results,
      },
      { name: 'Mailroom', email: 'support@mai1room.test' },
    );
    const alert = await screen.findByRole('alert', undefined, { timeout: 5_000 });
    expect(alert.textContent).toContain('Careful: mai1room.test imitates mailroom.test.');
    expect(screen.queryByText('Verified')).toBeNull();
  });
});
