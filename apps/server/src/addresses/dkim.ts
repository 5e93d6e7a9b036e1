import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import type { Db } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { findDkimKey, upsertDkimKey } from './addresses.repository.js';

/**
 * Installing the DKIM key the outbox job signs with (`dkim_keys`, one key per domain). The
 * operator gives the private key; the DNS record to publish is derived from it, so what is
 * printed always matches what signs.
 */

// RFC 1035 labels (letters, digits, inner hyphens, at most 63 each), at least two labels.
const domainPattern =
  /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
// A selector is one or more labels too (RFC 6376 §3.1), e.g. "mail2026" or "eu.mail".
const selectorPattern = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

// RFC 8301: verifiers must refuse RSA keys under 1024 bits, so such a key would only make mail fail.
const minRsaBits = 1024;

export interface DkimKeyInput {
  domain: string;
  selector: string;
  privateKeyPem: string;
}

export interface DkimKeyResult {
  domain: string;
  selector: string;
  /** The name of the TXT record, e.g. `mail._domainkey.example.com`. */
  dnsName: string;
  /** Its value: `v=DKIM1; k=rsa; p=<base64 SPKI>`. */
  dnsValue: string;
}

/** Checks the input and gives the normalised key, or throws `invalid_params` saying what is wrong. */
export function checkDkimKey(input: DkimKeyInput): { domain: string; selector: string; key: KeyObject } {
  const domain = input.domain.trim().toLowerCase().replace(/\.$/, '');
  if (!domainPattern.test(domain))
    throw new DomainError('invalid_params', `Invalid domain "${input.domain}": expected e.g. example.com`);
  const selector = input.selector.trim().toLowerCase();
  if (selector.length > 63 || !selectorPattern.test(selector))
    throw new DomainError(
      'invalid_params',
      `Invalid selector "${input.selector}": letters, digits and hyphens, e.g. mail2026`,
    );
  let key: KeyObject;
  try {
    key = createPrivateKey(input.privateKeyPem);
  } catch {
    throw new DomainError('invalid_params', 'The key is not a PEM private key (PKCS#8 or PKCS#1)');
  }
  // The relay signs with rsa-sha256, the one algorithm every verifier supports.
  if (key.asymmetricKeyType !== 'rsa')
    throw new DomainError('invalid_params', `The key must be an RSA key, not ${key.asymmetricKeyType}`);
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < minRsaBits)
    throw new DomainError(
      'invalid_params',
      `The RSA key has ${bits} bits; at least ${minRsaBits} are needed`,
    );
  return { domain, selector, key };
}

export function dkimDnsRecord(domain: string, selector: string, key: KeyObject): DkimKeyResult {
  const spki = createPublicKey(key).export({ type: 'spki', format: 'der' }).toString('base64');
  return {
    domain,
    selector,
    dnsName: `${selector}._domainkey.${domain}`,
    dnsValue: `v=DKIM1; k=rsa; p=${spki}`,
  };
}

/** Installs (or replaces) the domain's key; mail queued from now on is signed with it. */
export async function setDkimKey(db: Db, input: DkimKeyInput): Promise<DkimKeyResult> {
  const { domain, selector, key } = checkDkimKey(input);
  // Stored as PKCS#8 whatever the operator gave, so the signer always reads one format.
  const privateKey = key.export({ type: 'pkcs8', format: 'pem' }).toString();
  await upsertDkimKey(db, { domain, selector, privateKey });
  return dkimDnsRecord(domain, selector, key);
}

/** The key mail from this domain is signed with when relayed, if the domain has one. */
export function dkimKeyFor(db: Db, domain: string) {
  return findDkimKey(db, domain);
}
