import { sealSecret, unsealSecret } from '../core/secrets.js';

/**
 * A collector's IMAP password at rest: sealed with AES-256-GCM under a key derived from the deployment's secret
 * (Secrets.collectorPasswordSecret), opened only to sign in to the remote server. The API never returns it.
 */
const SEAL_LABEL = 'collector password';

export function sealCollectorPassword(secret: string, password: string): string {
  return sealSecret(secret, SEAL_LABEL, password);
}

export function openCollectorPassword(secret: string, sealed: string): string {
  return unsealSecret(secret, SEAL_LABEL, sealed);
}
