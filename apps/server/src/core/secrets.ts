import { generateKeyPairSync, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/** Keys the service generates for itself once and keeps under DATA_DIR (mode 0600). */
export interface Secrets {
  cookieSecret: string;
  idpCookieKeys: string[];
  idpSigningKey: Record<string, unknown>;
  idpClientSecret: string;
}

export function generateSecrets(): Secrets {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    cookieSecret: randomBytes(32).toString('base64url'),
    idpCookieKeys: [randomBytes(32).toString('base64url')],
    idpSigningKey: {
      ...privateKey.export({ format: 'jwk' }),
      kid: randomBytes(8).toString('hex'),
      use: 'sig',
      alg: 'RS256',
    },
    idpClientSecret: randomBytes(32).toString('base64url'),
  };
}

export async function loadSecrets(dataDir: string): Promise<Secrets> {
  const file = path.join(dataDir, 'secrets.json');
  try {
    return JSON.parse(await fs.readFile(file, 'utf8')) as Secrets;
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
      return JSON.parse(await fs.readFile(file, 'utf8')) as Secrets;
    throw err;
  }
}
