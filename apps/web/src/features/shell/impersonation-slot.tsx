import { withFeatureTexts } from '../../i18n';
import { LazyPart, lazyChunk } from '../../ui/lazy-route';
import { useUser } from '../account';

const Bar = lazyChunk(withFeatureTexts(() => import('./impersonation-bar')));

/** The bar of a session in another member's mailbox, loaded only for such a session (DESIGN §5: the shell's JS). */
export function ImpersonationBar() {
  const impersonating = Boolean(useUser()?.info.impersonator);
  return impersonating ? (
    <LazyPart>
      <Bar />
    </LazyPart>
  ) : null;
}
