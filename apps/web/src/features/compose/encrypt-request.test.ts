import { describe, expect, it } from 'vitest';
import { ENCRYPTED_PAYLOAD_LIMIT_BYTES, composeRequestSchema, type ComposeRequest } from '@mailroom/protocol';
import { decryptEnvelope, deriveSecrets, fromBase64 } from '../../lib/crypto';
import { EncryptedTooLargeError, encryptComposeRequest, fitsEncryptedLimit } from './encrypt-request';

const request: ComposeRequest = {
  subject: 'Договор',
  fields: {
    from: { email: 'ann@mailroom.test', name: 'Ann' },
    to: [{ email: 'bob@mailroom.test', name: '' }],
  },
  content: '<p>Secret terms</p>',
  content_type: 'text/html',
  attachments: [],
  isDraft: false,
};

describe('the encrypted send request', () => {
  it('carries nothing of the message in the clear, and the ciphertext opens to subject, body and files', async () => {
    const file = new File([new Uint8Array([1, 2, 3, 250])], 'terms.bin', {
      type: 'application/octet-stream',
    });
    const sealed = await encryptComposeRequest(request, 'pass-word', [file]);
    expect(composeRequestSchema.safeParse(sealed).success).toBe(true);
    expect(sealed).toMatchObject({ subject: '', content: '', attachments: [], encrypt: true });
    expect(sealed.fields).toEqual(request.fields);
    expect(JSON.stringify(sealed)).not.toContain('Secret terms');

    const { key, auth } = await deriveSecrets('pass-word', sealed.encryption!);
    expect(auth).toBe(sealed.encryption!.auth);
    const opened = await decryptEnvelope(key, fromBase64(sealed.encryption!.ciphertext));
    expect(opened.subject).toBe('Договор');
    expect(opened.content).toBe('<p>Secret terms</p>');
    expect(opened.attachments).toHaveLength(1);
    expect([...opened.attachments[0]!.bytes]).toEqual([1, 2, 3, 250]);
    expect(opened.attachments[0]!.name).toBe('terms.bin');
  });

  it('a message over the 20 MB encrypted limit is refused before anything is encrypted', async () => {
    expect(fitsEncryptedLimit(10, [ENCRYPTED_PAYLOAD_LIMIT_BYTES - 100_000])).toBe(true);
    expect(fitsEncryptedLimit(10, [ENCRYPTED_PAYLOAD_LIMIT_BYTES])).toBe(false);
    const big = new File([new Uint8Array(ENCRYPTED_PAYLOAD_LIMIT_BYTES)], 'big.bin');
    await expect(encryptComposeRequest(request, 'pass-word', [big])).rejects.toBeInstanceOf(
      EncryptedTooLargeError,
    );
  });
});
