import { useEffect, useMemo } from 'react';
import { X } from 'lucide-react';
import { loadErrorTexts, useTranslation } from '../../i18n';
import { IconButton } from '../../ui/icon-button';
import { Preloader } from '../../ui/preloader';
import { raiseError } from '../../api/error-message';
import { useAccount, useUser } from '../account';
import { ComposeForm } from './compose-form';
import { initialCompose, restoredCompose, type QuoteTexts } from './compose-init';
import { useCompose, type ComposeRequestOpen } from './compose-store';
import { useDraftMessage } from './queries';
import styles from './compose.module.css';

/** The compose window (SPEC §2), loaded with TipTap on first use; one at a time, remounted per opening. */
export default function ComposeWindow() {
  const open = useCompose((state) => state.open);
  // Upload and send errors are shown from the catalogue; have it here before the first one.
  useEffect(() => void loadErrorTexts().catch(() => {}), []);
  if (!open) return null;
  return <ComposeSession key={open.key} request={open} />;
}

function ComposeSession({ request }: { request: ComposeRequestOpen }) {
  const { t, i18n } = useTranslation();
  const account = useAccount();
  const user = useUser();
  const closeCompose = useCompose((state) => state.closeCompose);
  const draft = useDraftMessage(request.draft);
  const draftError = draft.error;

  useEffect(() => {
    if (!draftError) return;
    raiseError(draftError);
    closeCompose();
  }, [draftError, closeCompose]);

  const texts = useMemo<QuoteTexts>(
    () => ({
      replyHeader: (values) => t('compose.quoteHeader', values),
      forwardTitle: t('compose.forwardedTitle'),
      from: t('compose.from'),
      date: t('compose.date'),
      subject: t('compose.subject'),
      to: t('compose.to'),
    }),
    [t],
  );
  const ready = account !== undefined && (request.draft === undefined || draft.data !== undefined);
  const initial = useMemo(
    () =>
      !ready
        ? null
        : request.restore
          ? restoredCompose(request.restore, draft.data)
          : initialCompose(request, draft.data, account, user?.info.alias ?? null, texts, i18n.language),
    // The window starts from what was there when it opened; later account or language changes do not reset it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [ready],
  );

  if (!initial) {
    return (
      <section className={styles.window} role="dialog" aria-label={t('compose.title0')} aria-busy="true">
        <header className={styles.header}>
          <span className={styles.title}>{t('compose.title0')}</span>
          <IconButton label={t('compose.close')} onClick={closeCompose}>
            <X aria-hidden />
          </IconButton>
        </header>
        <div className={styles.loading}>
          <Preloader />
        </div>
      </section>
    );
  }
  return <ComposeForm initial={initial} />;
}
