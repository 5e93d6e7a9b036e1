// Collectors (issue 18): settings/collectors — the list with live progress, create (discovery, or the server set by
// hand) and confirm/{email} (login, password, filters) — one chunk (collectors-section.tsx) with its texts, never in
// the mail shell's first load (DESIGN §5). The live handler is in live.ts.
import { withFeatureTexts } from '../../i18n';

/** The collectors section of settings, with its texts. */
export const loadCollectorsSection = withFeatureTexts(() => import('./collectors-section'));
export type { CollectorsAction } from './collectors-section';
