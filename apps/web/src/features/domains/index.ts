// Own domains, addresses on them and delegation (issue 17): the settings/domains screens (list with create, confirm,
// dkim, remove, emails), settings/d_emails, and the password-access addresses of settings/access — one chunk
// (domains-section.tsx) loaded with the first of them: a chunk apart for each would be one more the shell's first
// chunk has to name (DESIGN §5). The live handler is in live.ts.
import { withFeatureTexts } from '../../i18n';

const loadChunk = () => import('./domains-section');

/** The domains section of settings, with its texts (DESIGN §5: never in the mail shell's first load). */
export const loadDomainsSection = withFeatureTexts(loadChunk);
/** settings/d_emails: the addresses delegated to this member. */
export const loadDelegatedSection = withFeatureTexts(() =>
  loadChunk().then((chunk) => ({ default: chunk.DelegatedSection })),
);
/** The addresses with password access, for settings/access (whose texts are loaded with it). */
export const loadAccessAddresses = () => loadChunk().then((chunk) => ({ default: chunk.AccessAddresses }));
export type { DomainsAction } from './domains-section';
