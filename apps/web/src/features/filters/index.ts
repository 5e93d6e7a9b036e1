// Filters (issue 14): the settings screens over the account's Sieve script (list, builder, raw editor, apply to a
// folder), loaded with the filters section; the live handler of filter runs; the address of a new filter.
import { withFeatureTexts } from '../../i18n';

/** The filters section of settings, with its texts (DESIGN §5: never in the mail shell's first load). */
export const loadFiltersSection = withFeatureTexts(() => import('./filters-section'));
export { newFilterPath } from './paths';
