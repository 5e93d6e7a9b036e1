import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { CircleAlert, CircleCheck, X } from 'lucide-react';
import clsx from 'clsx';
import { BANNER_MS } from '@mailroom/protocol';
import { useTranslation } from '../i18n';
import { NOTICE_ATTRIBUTE, useNotices, type Notice } from './notices-store';
import styles from './notice-box.module.css';

/**
 * The error and success boxes of SPEC §8: one at a time in a corner, each closing itself after 4 s (the bar shows
 * the time left; it waits while the pointer or the focus is on the box). They never block the screen, and they are
 * part of the shell's own code: an error must show even when the server, and so any chunk not loaded yet, is out
 * of reach.
 */
export function NoticeBox() {
  const notice = useNotices((state) => state.queue[0]);
  if (!notice) return null;
  // A fresh box (and bar) for every notice; at the end of <body>, above and apart from a modal dialog, which
  // hides and disables the rest of the page while it is open.
  // A countdown finished early (elsewhere) starts its box's closing afresh.
  return createPortal(
    <NoticeCard key={`${notice.id}:${notice.countdown?.until ?? ''}`} notice={notice} />,
    document.body,
  );
}

function NoticeCard({ notice }: { notice: Notice }) {
  const { t } = useTranslation();
  const dismiss = useNotices((state) => state.dismiss);
  const [undoing, setUndoing] = useState(false);
  const isError = notice.kind === 'error';
  const Icon = isError ? CircleAlert : CircleCheck;
  const titleId = `notice-${notice.id}-title`;
  const close = () => dismiss(notice.id);
  const secondsLeft = useSecondsLeft(notice.countdown?.until);
  // A countdown's box stays until it has ended and then shows its done text for the usual time.
  const [shownMs] = useState(() => BANNER_MS + Math.max(0, (notice.countdown?.until ?? 0) - Date.now()));
  const paused = usePausedTimer(shownMs, close);
  const counting = notice.countdown !== undefined && secondsLeft > 0;
  const text = notice.countdown
    ? counting
      ? notice.countdown.label(secondsLeft)
      : notice.countdown.doneText
    : notice.text;
  // A held send is not a success yet: its own title while it counts, then its done text alone.
  const title = isError
    ? t('notice.errorTitle')
    : notice.countdown
      ? counting
        ? notice.countdown.title
        : null
      : t('notice.successTitle');

  async function undo() {
    setUndoing(true);
    try {
      await notice.undo!();
    } finally {
      close();
    }
  }

  return (
    <div
      className={clsx(styles.box, isError && styles.error)}
      role={isError ? 'alertdialog' : 'status'}
      aria-labelledby={titleId}
      data-testid={isError ? 'error-dialog' : 'success-dialog'}
      {...{ [NOTICE_ATTRIBUTE]: '' }}
      data-paused={paused.on || undefined}
      onKeyDown={(event) => event.key === 'Escape' && close()}
      onPointerEnter={() => paused.set('pointer', true)}
      onPointerLeave={() => paused.set('pointer', false)}
      onFocus={() => paused.set('focus', true)}
      onBlur={(event) => !event.currentTarget.contains(event.relatedTarget) && paused.set('focus', false)}
    >
      <Icon className={clsx(styles.icon, isError ? styles.errorIcon : styles.successIcon)} aria-hidden />
      <div className={styles.body}>
        {title ? (
          <p id={titleId} className={styles.title}>
            {title}
          </p>
        ) : null}
        <p id={title ? undefined : titleId} className={styles.text}>
          {text}
        </p>
      </div>
      {notice.undo && (!notice.countdown || counting) && (
        <button type="button" className={styles.undo} onClick={undo} disabled={undoing}>
          {t('notice.undo')}
        </button>
      )}
      <button type="button" className={styles.close} onClick={close} aria-label={t('common.close')}>
        <X aria-hidden />
      </button>
      <div className={styles.progress} role="presentation" title={t('notice.autoClose')}>
        <div
          className={clsx(styles.bar, isError ? styles.errorBar : styles.successBar)}
          style={{ animationDuration: `${shownMs}ms` }}
        />
      </div>
    </div>
  );
}

/** Whole seconds until `until` (rounded up), ticking; 0 without one. */
function useSecondsLeft(until: number | undefined): number {
  const left = () => (until === undefined ? 0 : Math.max(0, Math.ceil((until - Date.now()) / 1000)));
  const [seconds, setSeconds] = useState(left);
  useEffect(() => {
    if (until === undefined) return;
    const timer = window.setInterval(() => {
      const next = left();
      setSeconds(next);
      if (next === 0) window.clearInterval(timer);
    }, 250);
    return () => window.clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- left reads until only
  }, [until]);
  return seconds;
}

/**
 * Calls `done` after `ms`, counting only the time the box is neither pointed at nor focused: whoever is reading it
 * or reaching for Undo keeps it.
 */
function usePausedTimer(ms: number, done: () => void) {
  const [holders, setHolders] = useState<ReadonlySet<string>>(new Set());
  const left = useRef(ms);
  const latest = useRef(done);
  latest.current = done;
  const on = holders.size > 0;
  useEffect(() => {
    if (on) return;
    const started = Date.now();
    const timer = window.setTimeout(() => latest.current(), left.current);
    return () => {
      window.clearTimeout(timer);
      left.current = Math.max(0, left.current - (Date.now() - started));
    };
  }, [on]);
  return {
    on,
    set(holder: string, holding: boolean) {
      setHolders((current) => {
        if (current.has(holder) === holding) return current;
        const next = new Set(current);
        if (holding) next.add(holder);
        else next.delete(holder);
        return next;
      });
    },
  };
}
