// Own domains, addresses on them and delegation (issue 17): the settings/domains screens (list with create, confirm,
// dkim, remove, emails), settings/d_emails, and the password-access addresses of settings/access — each loaded with
// its section; the live handler is in live.ts.
import { withFeatureTexts } from '../../i18n';

/** The domains section of settings, with its texts (DESIGN §5: never in the mail shell's first load). */
export const loadDomainsSection = withFeatureTexts(() => import('./domains-section'));
/** settings/d_emails: the addresses delegated to this member. */
export const loadDelegatedSection = withFeatureTexts(() => import('./delegated-section'));
/** The addresses with password access, for settings/access. */
export const loadAccessAddresses = () => import('./access-addresses');
export type { DomainsAction } from './domains-section';
export { delegatedPath, domainsPath } from './paths';
