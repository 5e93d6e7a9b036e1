import { useEffect } from 'react';
import { useTranslation, withFeatureTexts } from '../../i18n';
import { LazyPart, lazyChunk } from '../../ui/lazy-route';
import { useNotices } from '../../ui/notices-store';
import { useUser } from '../account';
import { movedOutOfAddress } from './impersonation';

const Bar = lazyChunk(withFeatureTexts(() => import('./impersonation-bar')));

/** The bar of a session in another member's mailbox, loaded only for such a session (DESIGN §5: the shell's JS). */
export function ImpersonationBar() {
  const impersonating = Boolean(useUser()?.info.impersonator);
  useLeftAddressNotice();
  return impersonating ? (
    <LazyPart>
      <Bar />
    </LazyPart>
  ) : null;
}

/** The page after a move out of a delegated address (followSessionChange) says why this is one's own mailbox. */
function useLeftAddressNotice() {
  const { t } = useTranslation();
  useEffect(() => {
    if (!movedOutOfAddress()) return;
    void import('./mailbox-switch')
      .then((module) => module.leftAddressNotice())
      .then((address) => {
        if (address) useNotices.getState().push('error', t('notice.delegationEnded', { address }));
      });
  }, [t]);
}
