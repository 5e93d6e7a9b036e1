import { describe, expect, it } from 'vitest';
import { ENCRYPTION_KDF_ITERATIONS, encryptionSchema, validateEncryptionPassword } from '@mailroom/protocol';
import {
  DecryptError,
  decryptEnvelope,
  deriveSecrets,
  encryptMessage,
  fromBase64,
  generatePassword,
} from './crypto';

const attachment = new Uint8Array(300_000).map((_, i) => (i * 31) % 256);
const payload = {
  subject: 'Квартальный отчёт',
  content: '<p>Секретный текст MARKER-42</p>',
  content_type: 'text/html' as const,
  attachments: [
    { name: 'report.bin', type: 'application/octet-stream', bytes: attachment },
    { name: 'empty.txt', type: 'text/plain', bytes: new Uint8Array(0) },
  ],
};

describe('password encryption in the browser', () => {
  it('the generated password has 20 valid characters and differs each time', () => {
    const a = generatePassword();
    expect(a).toHaveLength(20);
    expect(validateEncryptionPassword(a)).toBe(true);
    expect(generatePassword()).not.toBe(a);
  });

  it('a message encrypted under a password opens with the same password, subject and attachments intact', async () => {
    const sealed = await encryptMessage('correct horse', payload);
    expect(encryptionSchema.parse(sealed)).toBeTruthy();
    expect(sealed.iterations).toBe(ENCRYPTION_KDF_ITERATIONS);
    expect(sealed.key_salt).not.toBe(sealed.auth_salt);
    const envelope = fromBase64(sealed.ciphertext);
    expect(new TextDecoder().decode(envelope)).not.toContain('MARKER-42');

    const { key, auth } = await deriveSecrets('correct horse', sealed);
    expect(auth).toBe(sealed.auth);
    const opened = await decryptEnvelope(key, envelope);
    expect(opened.subject).toBe(payload.subject);
    expect(opened.content).toBe(payload.content);
    expect(opened.content_type).toBe('text/html');
    expect(opened.attachments.map((a) => [a.name, a.type, a.bytes.length])).toEqual([
      ['report.bin', 'application/octet-stream', 300_000],
      ['empty.txt', 'text/plain', 0],
    ]);
    expect(Buffer.from(opened.attachments[0]!.bytes).equals(Buffer.from(attachment))).toBe(true);
  });

  it('a wrong password gives another authentication value and does not open the message', async () => {
    const sealed = await encryptMessage('correct horse', { ...payload, attachments: [] });
    const wrong = await deriveSecrets('correct hors', sealed);
    expect(wrong.auth).not.toBe(sealed.auth);
    await expect(decryptEnvelope(wrong.key, fromBase64(sealed.ciphertext))).rejects.toBeInstanceOf(
      DecryptError,
    );
  });

  it('a tampered ciphertext is refused, not decrypted to garbage', async () => {
    const sealed = await encryptMessage('pw1', {
      content: 'hello',
      content_type: 'text/plain',
      attachments: [],
    });
    const envelope = fromBase64(sealed.ciphertext);
    envelope[envelope.length - 20]! ^= 1;
    const { key } = await deriveSecrets('pw1', sealed);
    await expect(decryptEnvelope(key, envelope)).rejects.toBeInstanceOf(DecryptError);
  });

  it('the same password and message encrypt differently each time (fresh salts and IV)', async () => {
    const small = { content: 'same', content_type: 'text/plain' as const, attachments: [] };
    const [a, b] = await Promise.all([encryptMessage('pw1', small), encryptMessage('pw1', small)]);
    expect(a.ciphertext).not.toBe(b.ciphertext);
    expect(a.key_salt).not.toBe(b.key_salt);
    expect(a.auth).not.toBe(b.auth);
  });
});
