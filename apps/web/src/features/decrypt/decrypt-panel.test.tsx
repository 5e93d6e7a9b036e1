import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ApiError } from '../../api/client';
import { deriveSecrets, encryptMessage, fromBase64 } from '../../lib/crypto';
import type { DecryptSource } from './decrypt-api';
import DecryptPanel from './decrypt-panel';

/**
 * The server's side of the exchange, in memory: it keeps what the real one keeps (params and the
 * authentication value to compare) and answers like it; the crypto on both sides is the real one.
 */
async function sourceFor(password: string, opts: { lockAfter?: number } = {}) {
  const sealed = await encryptMessage(password, {
    subject: 'Board minutes',
    content: 'Line one\nhttps://example.org/agenda',
    content_type: 'text/plain',
    attachments: [{ name: 'minutes.txt', type: 'text/plain', bytes: new TextEncoder().encode('minutes') }],
  });
  let failures = 0;
  const source: DecryptSource = {
    params: async () => ({ id: 'x'.repeat(22), ...sealed }),
    open: async (auth) => {
      if (opts.lockAfter !== undefined && failures >= opts.lockAfter)
        throw new ApiError(423, 'locked', 'decrypt_locked');
      if (auth !== sealed.auth) {
        failures++;
        throw new ApiError(403, 'failed', 'decrypt_failed');
      }
      return fromBase64(sealed.ciphertext);
    },
  };
  return { source, sealed };
}

describe('the decrypt prompt', () => {
  it('a wrong password says so; the right one shows subject, text with links and the attachment as a download', async () => {
    const user = userEvent.setup();
    const { source, sealed } = await sourceFor('open sesame');
    expect((await deriveSecrets('open sesame', sealed)).auth).toBe(sealed.auth);
    render(<DecryptPanel source={source} />);
    await user.type(screen.getByLabelText('Password'), 'open sesam');
    await user.click(screen.getByRole('button', { name: 'Decrypt' }));
    expect((await screen.findByRole('alert', {}, { timeout: 10_000 })).textContent).toContain(
      'Wrong password',
    );

    await user.type(screen.getByLabelText('Password'), 'e');
    await user.click(screen.getByRole('button', { name: 'Decrypt' }));
    const message = await screen.findByRole('article', { name: 'Decrypted message' }, { timeout: 10_000 });
    expect(message.querySelector('h2')?.textContent).toBe('Board minutes');
    expect(screen.getByRole('link', { name: 'https://example.org/agenda' }).getAttribute('rel')).toContain(
      'noopener',
    );
    const download = screen.getByRole('link', { name: /minutes\.txt/ });
    expect(download.getAttribute('download')).toBe('minutes.txt');
    expect(download.getAttribute('href')).toMatch(/^blob:/);
  });

  it('a locked message says so and takes no more passwords', async () => {
    const user = userEvent.setup();
    const { source } = await sourceFor('open sesame', { lockAfter: 0 });
    render(<DecryptPanel source={source} />);
    await user.type(screen.getByLabelText('Password'), 'anything');
    await user.click(screen.getByRole('button', { name: 'Decrypt' }));
    expect((await screen.findByRole('alert', {}, { timeout: 10_000 })).textContent).toContain('locked');
    expect(screen.getByLabelText<HTMLInputElement>('Password').disabled).toBe(true);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Decrypt' }).disabled).toBe(true);
  });
});
