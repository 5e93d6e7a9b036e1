/**
 * DKIM for the tests, the e2e files and the bench (issue 30): a key pair with its DNS record, and a message signed by
 * mailauth's signer (its submodule: the main entry needs Node 22). The record is split into strings of at most 255
 * bytes, as a TXT record's strings must be (test-support/dns.ts serves them as one record).
 */
import { generateKeyPairSync } from 'node:crypto';
import { createRequire } from 'node:module';

const { dkimSign } = createRequire(import.meta.url)('mailauth/lib/dkim/sign.js') as {
  dkimSign(
    raw: Buffer,
    options: {
      canonicalization: string;
      signatureData: { signingDomain: string; selector: string; privateKey: string; algorithm: string }[];
    },
  ): Promise<{ signatures: string; errors: unknown[] }>;
};

export interface DkimKey {
  algorithm: 'rsa-sha256' | 'ed25519-sha256';
  /** PKCS#8 PEM. */
  privateKey: string;
  /** The TXT record `v=DKIM1; k=…; p=…`, as strings of at most 255 bytes. */
  record: string[];
}

export function dkimKey(kind: 'rsa' | 'ed25519' = 'rsa'): DkimKey {
  const { privateKey, publicKey } =
    kind === 'rsa' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ed25519');
  const der = publicKey.export({ type: 'spki', format: 'der' });
  // RFC 8463: an Ed25519 record holds the raw 32-byte key; an RSA one the SubjectPublicKeyInfo.
  const p = (kind === 'rsa' ? der : der.subarray(-32)).toString('base64');
  return {
    algorithm: kind === 'rsa' ? 'rsa-sha256' : 'ed25519-sha256',
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    record: `v=DKIM1; k=${kind}; p=${p}`.match(/.{1,255}/g)!,
  };
}

/** The message with a DKIM-Signature of `domain` (selector `selector`) on top, relaxed/relaxed. */
export async function dkimSigned(
  raw: Buffer,
  domain: string,
  key: DkimKey,
  selector = 'sel',
): Promise<Buffer> {
  const result = await dkimSign(raw, {
    canonicalization: 'relaxed/relaxed',
    signatureData: [
      { signingDomain: domain, selector, privateKey: key.privateKey, algorithm: key.algorithm },
    ],
  });
  if (result.errors.length) throw new Error(`DKIM signing failed: ${JSON.stringify(result.errors)}`);
  return Buffer.concat([Buffer.from(result.signatures), raw]);
}
