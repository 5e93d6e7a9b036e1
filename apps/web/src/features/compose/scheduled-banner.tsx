import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { CalendarClock } from 'lucide-react';
import { COMPOSE_MODE } from '@mailroom/protocol';
import { useTranslation } from '../../i18n';
import { Button } from '../../ui/button';
import { useNotices } from '../../ui/notices-store';
import { useCompose } from './compose-store';
import { cancelScheduledSend, scheduledSendsKey, sendScheduledNow, useScheduledSends } from './queries';
import { sendErrorText } from './send-errors';
import { formatSendTime } from './send-later';
import styles from './scheduled-banner.module.css';

/**
 * The reader's bar on a message waiting in Scheduled (issue 31): when it will be sent, and Edit (back to compose as
 * a draft), Send now and Cancel. The send is found in GET scheduled-sends by the copy's folder and uid.
 */
export default function ScheduledBanner({
  message,
  onDone,
}: {
  message: { folder_id: number; uid: number };
  /** The send went or was cancelled: its copy has left Scheduled. */
  onDone(): void;
}) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const scheduled = useScheduledSends();
  const [busy, setBusy] = useState(false);
  const entry = scheduled.data?.find(
    (item) => item.folder_id === message.folder_id && item.uid === message.uid,
  );
  if (!entry) return null;

  async function act(action: 'edit' | 'send' | 'cancel') {
    if (!entry) return;
    setBusy(true);
    const notices = useNotices.getState();
    try {
      if (action === 'send') {
        await sendScheduledNow(entry.id);
        notices.push('success', t('compose.scheduledSent'));
      } else {
        const { draft } = await cancelScheduledSend(entry.id);
        if (action === 'edit' && draft) useCompose.getState().openCompose({ mode: COMPOSE_MODE.NEW, draft });
        else notices.push('success', t('compose.scheduledCancelled'));
      }
      void client.invalidateQueries({ queryKey: scheduledSendsKey });
      onDone();
    } catch (error) {
      notices.push('error', sendErrorText(error, t));
      setBusy(false);
    }
  }

  return (
    <div className={styles.banner} role="status" data-testid="scheduled-banner">
      <CalendarClock aria-hidden />
      <span>{t('compose.scheduledBanner', { date: formatSendTime(entry.send_at, i18n.language) })}</span>
      <div className={styles.actions}>
        <Button variant="secondary" disabled={busy} onClick={() => void act('edit')}>
          {t('compose.scheduledEdit')}
        </Button>
        <Button variant="primary" disabled={busy} onClick={() => void act('send')}>
          {t('compose.scheduledSendNow')}
        </Button>
        <Button variant="secondary" disabled={busy} onClick={() => void act('cancel')}>
          {t('compose.scheduledCancel')}
        </Button>
      </div>
    </div>
  );
}
