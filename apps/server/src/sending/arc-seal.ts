import { createRequire } from 'node:module';
import type { Db } from '../core/db/index.js';
import type { MessageVerdict } from '../mailbox/index.js';
import { dkimKeyFor } from '../addresses/index.js';

// mailauth's main entry loads its BIMI module, whose undici needs Node 22; the ARC module alone runs on Node 20. It is
// loaded with the first message sealed, not at start (issue 32).
type Seal = (
  raw: Buffer,
  seal: { signingDomain: string; selector: string; privateKey: string; authResults: string; cv: string },
) => Promise<Buffer>;
let sealer: Seal | undefined;
const sealMessage: Seal = (raw, seal) =>
  (sealer ??= (createRequire(import.meta.url)('mailauth/lib/arc/index.js') as { sealMessage: Seal })
    .sealMessage)(raw, seal);

/**
 * Mail a filter forwards leaves with our ARC set on top (RFC 8617), so the next hop can trust what we found when it
 * reached us although our SRS envelope sender and the added header break its SPF and perhaps its DKIM: the
 * ARC-Authentication-Results repeat our Authentication-Results (the top field, ours), the chain validation is what
 * our check said (cv), signed with the operator's key of the mail domain (`mailroom dkim set`). Without that key, or
 * when the chain cannot be sealed (a chain that already failed), the message goes as it is.
 */
export async function arcSealForward(
  deps: { db: Db; config: { mailDomain: string; mxHost: string } },
  raw: Buffer,
  verdict: MessageVerdict | undefined,
): Promise<Buffer> {
  const key = await dkimKeyFor(deps.db, deps.config.mailDomain);
  if (!key) return raw;
  const arc = verdict?.auth?.arc.result;
  const cv = arc === 'pass' ? 'pass' : arc === 'fail' ? 'fail' : 'none';
  if (cv === 'fail') return raw;
  try {
    const seal = await sealMessage(raw, {
      signingDomain: key.domain,
      selector: key.selector,
      privateKey: key.private_key,
      authResults: ourAuthenticationResults(raw, deps.config.mxHost),
      cv,
    });
    return seal.length ? Buffer.concat([seal, raw]) : raw;
  } catch {
    return raw;
  }
}

/** The value of our Authentication-Results (the first field, which our SMTP put there), or "<authserv-id>; none". */
function ourAuthenticationResults(raw: Buffer, authservId: string): string {
  const head = raw.subarray(0, 65_536).toString('latin1');
  const match = /^Authentication-Results:[ \t]*((?:[^\r\n]|\r\n[ \t])*)/i.exec(head);
  const value = match?.[1]?.replace(/\r\n[ \t]+/g, ' ').trim();
  return value && value.toLowerCase().startsWith(`${authservId.toLowerCase()};`)
    ? value
    : `${authservId}; none`;
}
