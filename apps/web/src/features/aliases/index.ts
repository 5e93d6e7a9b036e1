// Aliases (issue 16): the settings/aliases screen (the free alias, paid ones with their invoices, password access),
// loaded with its section; its live handler is in live.ts.
import { withFeatureTexts } from '../../i18n';

/** The aliases section of settings, with its texts (DESIGN §5: never in the mail shell's first load). */
export const loadAliasesSection = withFeatureTexts(() => import('./aliases-section'));
export { aliasesPath, newAliasPath } from './paths';
