import { useState } from 'react';
import { CalendarClock, ChevronDown } from 'lucide-react';
import { useTranslation } from '../../i18n';
import { Button } from '../../ui/button';
import { Dropdown } from '../../ui/dropdown';
import { IconButton } from '../../ui/icon-button';
import { Select } from '../../ui/select';
import menu from '../../ui/menu.module.css';
import {
  fromLocalInput,
  isoWithOffset,
  mondayMorning,
  REMIND_CHOICES,
  toLocalInput,
  tomorrowMorning,
} from './send-later';
import styles from './compose.module.css';

/**
 * "Send later" next to Send (issue 31): tomorrow or Monday at 08:00, or a picked date and time, all in the
 * browser's time zone and sent with its offset. Not offered for an encrypted message (the server refuses it).
 */
export function SendLaterMenu({ disabled, onSend }: { disabled: boolean; onSend(sendAt: string): void }) {
  const { t } = useTranslation();
  const [picking, setPicking] = useState(false);
  const [picked, setPicked] = useState('');
  const pickedDate = fromLocalInput(picked);
  const openPicker = () => {
    // An hour from now, on the minute, to start from.
    const start = new Date(Date.now() + 60 * 60 * 1000);
    start.setSeconds(0, 0);
    setPicked(toLocalInput(start));
    setPicking(true);
  };
  return (
    <>
      <Dropdown
        align="start"
        trigger={
          <IconButton label={t('compose.sendLaterMenu')} disabled={disabled} data-testid="send-later">
            <ChevronDown aria-hidden />
          </IconButton>
        }
        content={(Menu) => (
          <>
            <Menu.Label className={menu.label}>{t('compose.sendLater')}</Menu.Label>
            <Menu.Item
              className={menu.item}
              onSelect={() => onSend(isoWithOffset(tomorrowMorning(new Date())))}
            >
              {t('compose.tomorrowMorning')}
            </Menu.Item>
            <Menu.Item
              className={menu.item}
              onSelect={() => onSend(isoWithOffset(mondayMorning(new Date())))}
            >
              {t('compose.mondayMorning')}
            </Menu.Item>
            <Menu.Item className={menu.item} onSelect={openPicker}>
              {t('compose.pickTime')}
            </Menu.Item>
          </>
        )}
      />
      {picking ? (
        <div className={styles.sendLaterPicker} role="group" aria-label={t('compose.sendLater')}>
          <CalendarClock aria-hidden />
          <input
            type="datetime-local"
            aria-label={t('compose.pickTimeLabel')}
            value={picked}
            min={toLocalInput(new Date())}
            onChange={(event) => setPicked(event.target.value)}
          />
          <Button
            variant="primary"
            disabled={disabled || !pickedDate}
            onClick={() => {
              if (!pickedDate) return;
              setPicking(false);
              onSend(isoWithOffset(pickedDate));
            }}
          >
            {t('compose.schedule')}
          </Button>
          <Button variant="secondary" onClick={() => setPicking(false)}>
            {t('compose.cancel')}
          </Button>
        </div>
      ) : null}
    </>
  );
}

/** "Remind me if no reply in N days": the sent message comes back to the Inbox when no answer came by then. */
export function RemindSelect({ value, onChange }: { value: number; onChange(days: number): void }) {
  const { t } = useTranslation();
  return (
    <span className={styles.remind} title={t('compose.remind')}>
      <Select
        label={t('compose.remind')}
        value={String(value)}
        options={REMIND_CHOICES.map((days) => ({
          value: String(days),
          label: days === 0 ? t('compose.remindOff') : t('compose.remindDays', { count: days }),
        }))}
        onChange={(next) => onChange(Number(next))}
      />
    </span>
  );
}
