import { withFeatureTexts } from '../../i18n';

// The reader (DOMPurify, the attachment list) and the toolbar's actions are chunks of their own, loaded with the
// on-demand texts they show (DESIGN §5): when first needed, or prefetched once the list is drawn.
export const loadReader = withFeatureTexts(() => import('./reader'));
export const loadSelectionActions = withFeatureTexts(() => import('./selection-actions'));
