import { useEffect, useRef, useState } from 'react';
import { AlarmClock, CalendarClock, CalendarDays, Clock, Sunrise } from 'lucide-react';
import { formatFullDate } from '@mailroom/protocol';
import { useTranslation } from '../../i18n';
import { FormDialog } from '../../ui/dialog';
import { Dropdown } from '../../ui/dropdown';
import { Field } from '../../ui/field';
import { IconButton } from '../../ui/icon-button';
import menu from '../../ui/menu.module.css';
import { fromLocalInput, localInputValue, snoozePresets, SNOOZE_MAX_DAYS } from './snooze-time';
import { ownedByControl } from './use-mail-keyboard';

const ignore = () => {};

/** The keyboard shortcut of Snooze (Gmail's): opens the menu for the selected or open messages. */
export const SNOOZE_KEY = 'b';

/** SNOOZE_KEY calls `onKey` (null: not now) unless a field, menu or dialog has the keys, or a modifier is held. */
function useSnoozeKey(onKey: (() => void) | null): void {
  const latest = useRef(onKey);
  latest.current = onKey;
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.repeat) return;
      // The key where B is on a Latin layout, also under another alphabet's layout (Russian: И).
      const latin = /^[a-z]$/i.test(event.key);
      const pressed = latin ? event.key.toLowerCase() === SNOOZE_KEY : event.code === 'KeyB';
      if (!pressed || ownedByControl(event.target) || !latest.current) return;
      event.preventDefault();
      latest.current();
    }
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}

/**
 * The Snooze menu of the selection toolbar and the reader (issue 31): Later today, Tomorrow, Next week, or a picked
 * time. `onSnooze` gets the moment in the browser's zone; its failure is shown by the error box.
 */
export function SnoozeMenu({
  onSnooze,
  align = 'start',
  shortcut = false,
}: {
  onSnooze(until: Date): Promise<void>;
  align?: 'start' | 'end';
  /** The menu opens on SNOOZE_KEY too (the selection toolbar's: one menu answers the key). */
  shortcut?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const [picking, setPicking] = useState(false);
  const [open, setOpen] = useState(false);
  useSnoozeKey(shortcut ? () => setOpen(true) : null);
  // The times are worked out when the menu opens (the content renders then), so they are not hours old.
  const now = new Date();
  const presets = snoozePresets(now);
  const choices = [
    presets.later ? { key: 'later', label: t('mail.snoozeLater'), at: presets.later, Icon: Clock } : null,
    { key: 'tomorrow', label: t('mail.snoozeTomorrow'), at: presets.tomorrow, Icon: Sunrise },
    { key: 'nextWeek', label: t('mail.snoozeNextWeek'), at: presets.nextWeek, Icon: CalendarDays },
  ].filter((choice) => choice !== null);

  return (
    <>
      <Dropdown
        align={align}
        open={open}
        onOpenChange={setOpen}
        trigger={
          <IconButton
            label={t('mail.snooze')}
            {...(shortcut
              ? {
                  tooltip: t('mail.snoozeWithKey', { key: SNOOZE_KEY.toUpperCase() }),
                  'aria-keyshortcuts': SNOOZE_KEY,
                }
              : {})}
          >
            <AlarmClock aria-hidden />
          </IconButton>
        }
        content={(Menu) => (
          <>
            <Menu.Label className={menu.label}>{t('mail.snooze')}</Menu.Label>
            {choices.map(({ key, label, at, Icon }) => (
              <Menu.Item
                key={key}
                className={menu.item}
                data-snooze={key}
                onSelect={() => void onSnooze(at).catch(ignore)}
              >
                <Icon aria-hidden />
                <span>{label}</span>
                <span className={menu.hint}>{formatFullDate(at, now, i18n.language)}</span>
              </Menu.Item>
            ))}
            <Menu.Separator className={menu.separator} />
            <Menu.Item className={menu.item} data-snooze="pick" onSelect={() => setPicking(true)}>
              <CalendarClock aria-hidden />
              {t('mail.snoozePick')}
            </Menu.Item>
          </>
        )}
      />
      {picking ? <PickTimeDialog onClose={() => setPicking(false)} onSnooze={onSnooze} /> : null}
    </>
  );
}

/** "Pick a time…": a date and time in the browser's zone, ahead of now and at most a year on. */
function PickTimeDialog({ onClose, onSnooze }: { onClose(): void; onSnooze(until: Date): Promise<void> }) {
  const { t } = useTranslation();
  const [now] = useState(() => new Date());
  const [value, setValue] = useState(() => localInputValue(snoozePresets(now).tomorrow));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const max = new Date(now.getTime() + SNOOZE_MAX_DAYS * 86_400_000);

  function submit() {
    const until = fromLocalInput(value);
    if (!until || until.getTime() <= Date.now()) return setError(t('mail.snoozePast'));
    if (until > max) return setError(t('mail.snoozeTooFar'));
    setBusy(true);
    onSnooze(until).then(onClose, () => setBusy(false));
  }

  return (
    <FormDialog
      onOpenChange={(open) => !open && onClose()}
      title={t('mail.snoozePickTitle')}
      busy={busy}
      onSubmit={submit}
      submitLabel={t('mail.snooze')}
      noValidate
    >
      <Field label={t('mail.snoozeUntilLabel')} error={error}>
        <input
          type="datetime-local"
          value={value}
          min={localInputValue(now)}
          max={localInputValue(max)}
          autoFocus
          onChange={(event) => {
            setValue(event.target.value);
            setError(null);
          }}
        />
      </Field>
    </FormDialog>
  );
}
