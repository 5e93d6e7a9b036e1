import { generateKeyPair, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import type { DkimAlgorithm } from '@mailroom/protocol';
import { sealSecret, unsealSecret } from '../core/secrets.js';
import { dkimSelector } from './domain-names.js';

/**
 * The DKIM keys of own domains: an RSA-2048 and an Ed25519 pair made together (some receivers verify only RSA, so
 * mail carries both signatures), each on a selector with the day it was made, the private key sealed under a key
 * derived from SECRET_KEY (`sealSecret`), the public key as the TXT record's p= carries it.
 */

type Pair = { publicKey: KeyObject; privateKey: KeyObject };
const generateRsa = promisify(generateKeyPair) as (type: 'rsa', options: { modulusLength: number }) => Promise<Pair>;
const generateEd25519 = (type: 'ed25519') =>
  new Promise<Pair>((resolve, reject) =>
    generateKeyPair(type, undefined, (err, publicKey, privateKey) =>
      err ? reject(err) : resolve({ publicKey, privateKey }),
    ),
  );
const SEAL_LABEL = 'domain dkim private key v1';

export interface NewDkimKey {
  selector: string;
  algorithm: DkimAlgorithm;
  /** Sealed PKCS#8 PEM. */
  privateKey: string;
  /** The p= value: base64 SPKI for RSA, the bare 32-byte key for Ed25519 (RFC 8463). */
  publicKey: string;
}

function publicKeyValue(algorithm: DkimAlgorithm, key: KeyObject): string {
  const spki = key.export({ type: 'spki', format: 'der' });
  // An Ed25519 SPKI is a fixed 12-byte header and the 32-byte key.
  return (algorithm === 'rsa' ? spki : spki.subarray(spki.length - 32)).toString('base64');
}

async function newKey(
  secret: string,
  algorithm: DkimAlgorithm,
  day: Date,
  taken: Set<string>,
): Promise<NewDkimKey> {
  const pair: { publicKey: KeyObject; privateKey: KeyObject } =
    algorithm === 'rsa' ? await generateRsa('rsa', { modulusLength: 2048 }) : await generateEd25519('ed25519');
  const selector = dkimSelector(day, algorithm, taken);
  taken.add(selector);
  const pem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  return {
    selector,
    algorithm,
    privateKey: sealSecret(secret, SEAL_LABEL, pem),
    publicKey: publicKeyValue(algorithm, pair.publicKey),
  };
}

/** A new RSA and Ed25519 pair, on selectors not among `taken` (the domain's selectors so far). */
export async function newDkimPair(secret: string, day: Date, taken: Iterable<string>): Promise<NewDkimKey[]> {
  const used = new Set(taken);
  return [await newKey(secret, 'rsa', day, used), await newKey(secret, 'ed25519', day, used)];
}

/** The PEM of a sealed private key. */
export function openDkimPrivateKey(secret: string, sealed: string): string {
  return unsealSecret(secret, SEAL_LABEL, sealed);
}
