import { createCipheriv, createDecipheriv, generateKeyPairSync, hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Db } from './db/index.js';
import { findServerKey, insertOrGetServerKey } from './secrets.repository.js';

/**
 * The service's keys. With SECRET_KEY they are derived from it (or, for the IdP signing key, kept in
 * the database encrypted under it), so every process of a deployment agrees; without it they are
 * generated once and kept under DATA_DIR (mode 0600), good for one process.
 */
export interface Secrets {
  cookieSecret: string;
  idpCookieKeys: string[];
  idpSigningKey: Record<string, unknown>;
  idpClientSecret: string;
  /** Feeds ImageUrlSigner (mail/image-proxy). */
  imageProxySecret: string;
  /** Feeds paramsKey (encrypted/): the fake decrypt params of unknown ids. */
  decryptParamsSecret: string;
  /** Seals own domains' DKIM private keys at rest (addresses/, `sealSecret`). */
  dkimKeySecret: string;
  /** Seals collectors' IMAP passwords at rest (collectors/, `sealSecret`). */
  collectorPasswordSecret: string;
  /** Keys the SRS addresses redirected mail leaves with (addresses/srs.ts), and checks the bounces that come back. */
  srsSecret: string;
}

/** 32 bytes of HKDF-SHA256 from the secret key under its own label: knowing one says nothing of another. */
function derive(secretKey: string, label: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secretKey, 'mailroom', label, 32));
}

function newSigningKey(): Record<string, unknown> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    ...privateKey.export({ format: 'jwk' }),
    kid: randomBytes(8).toString('hex'),
    use: 'sig',
    alg: 'RS256',
  };
}

export function generateSecrets(): Secrets {
  const cookieSecret = randomBytes(32).toString('base64url');
  return {
    cookieSecret,
    idpCookieKeys: [randomBytes(32).toString('base64url')],
    idpSigningKey: newSigningKey(),
    idpClientSecret: randomBytes(32).toString('base64url'),
    // As before SECRET_KEY: derived from the cookie secret (under their own labels where they are used).
    imageProxySecret: cookieSecret,
    decryptParamsSecret: cookieSecret,
    dkimKeySecret: cookieSecret,
    collectorPasswordSecret: cookieSecret,
    srsSecret: cookieSecret,
  };
}

/** Every symmetric key of the deployment, from SECRET_KEY alone. */
export function deriveSecrets(secretKey: string): Omit<Secrets, 'idpSigningKey'> {
  const key = (label: string) => derive(secretKey, label).toString('base64url');
  return {
    cookieSecret: key('cookie secret v1'),
    idpCookieKeys: [key('idp cookie key v1')],
    idpClientSecret: key('idp client secret v1'),
    imageProxySecret: key('image proxy v1'),
    decryptParamsSecret: key('decrypt params v1'),
    dkimKeySecret: key('dkim private keys v1'),
    collectorPasswordSecret: key('collector passwords v1'),
    srsSecret: key('srs v1'),
  };
}

/**
 * The embedded IdP's RSA signing key when SECRET_KEY is set. An RSA key cannot be derived from a seed
 * with node:crypto, so the first process to start generates one and inserts it into server_keys (ON
 * CONFLICT DO NOTHING); every process then reads the row that won. It is stored encrypted (AES-256-GCM
 * under a key derived from SECRET_KEY), and the row is named after a fingerprint of SECRET_KEY: a
 * deployment with another SECRET_KEY on the same database gets its own key instead of one it cannot read.
 */
export async function loadSharedSigningKey(db: Db, secretKey: string): Promise<Record<string, unknown>> {
  const encryptionKey = derive(secretKey, 'idp signing key encryption v1');
  const name = `idp-signing-key:${derive(secretKey, 'idp signing key name v1').toString('hex').slice(0, 16)}`;
  // Generating an RSA key takes a while: only when no process has stored one yet.
  const stored =
    (await findServerKey(db, name)) ??
    (await insertOrGetServerKey(db, name, seal(encryptionKey, JSON.stringify(newSigningKey()))));
  return JSON.parse(unseal(encryptionKey, stored)) as Record<string, unknown>;
}

/** AES-256-GCM: iv.tag.ciphertext, each base64url. */
function seal(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), sealed].map((b) => b.toString('base64url')).join('.');
}

function unseal(key: Buffer, sealed: string): string {
  const [iv = '', tag = '', body = ''] = sealed.split('.');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

/**
 * A value kept encrypted at rest (a DKIM private key) under one of the deployment's secrets: AES-256-GCM with a key
 * derived from `secret` under `label`, so the same secret seals other things under other labels apart.
 */
export function sealSecret(secret: string, label: string, plain: string): string {
  return seal(derive(secret, label), plain);
}

/** What sealSecret sealed; throws when the secret or label differ or the text was changed. */
export function unsealSecret(secret: string, label: string, sealed: string): string {
  return unseal(derive(secret, label), sealed);
}

/** The keys of this deployment: from SECRET_KEY when set, else generated once under DATA_DIR. */
export async function loadSecrets(
  config: { secretKey: string | undefined; dataDir: string },
  db: Db,
): Promise<Secrets> {
  if (config.secretKey !== undefined) {
    return {
      ...deriveSecrets(config.secretKey),
      idpSigningKey: await loadSharedSigningKey(db, config.secretKey),
    };
  }
  return loadDataDirSecrets(config.dataDir);
}

async function loadDataDirSecrets(dataDir: string): Promise<Secrets> {
  const file = path.join(dataDir, 'secrets.json');
  try {
    return withDefaults(JSON.parse(await fs.readFile(file, 'utf8')) as StoredSecrets);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const secrets = generateSecrets();
  await fs.mkdir(dataDir, { recursive: true });
  // 'wx' so two processes starting at once cannot overwrite each other's keys.
  try {
    await fs.writeFile(file, JSON.stringify(secrets, null, 2), { mode: 0o600, flag: 'wx' });
    return secrets;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST')
      return withDefaults(JSON.parse(await fs.readFile(file, 'utf8')) as StoredSecrets);
    throw err;
  }
}

/** secrets.json written before the image-proxy and decrypt secrets had fields of their own. */
type StoredSecrets = Omit<
  Secrets,
  'imageProxySecret' | 'decryptParamsSecret' | 'dkimKeySecret' | 'collectorPasswordSecret' | 'srsSecret'
> &
  Partial<Secrets>;

function withDefaults(stored: StoredSecrets): Secrets {
  return {
    ...stored,
    imageProxySecret: stored.imageProxySecret ?? stored.cookieSecret,
    decryptParamsSecret: stored.decryptParamsSecret ?? stored.cookieSecret,
    dkimKeySecret: stored.dkimKeySecret ?? stored.cookieSecret,
    collectorPasswordSecret: stored.collectorPasswordSecret ?? stored.cookieSecret,
    srsSecret: stored.srsSecret ?? stored.cookieSecret,
  };
}
