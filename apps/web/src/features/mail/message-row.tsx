import { memo, useRef, type DragEvent, type KeyboardEvent, type MouseEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../i18n';
import clsx from 'clsx';
import { AlarmClock, CornerDownLeft, Layers, Lock, Paperclip, Star } from 'lucide-react';
import {
  DOUBLE_CLICK_MS,
  formatFullDate,
  formatListDate,
  type MailListItem,
  type ThreadMember,
} from '@mailroom/protocol';
import { folderLabel, folderPath, writeDraggedMessages, type Label } from '../folders';
import { useNavigate } from '../../lib/router';
import { useMailScreen } from './mail-context';
import { messageKey, rowCorrespondents, toFolderMessages } from './list-model';
import { bulkRequest } from './queries';
import { useNotices } from '../../ui/notices-store';
import { useSelection } from './selection-store';
import styles from './message-list.module.css';

/** The height of a member line of an opened chain. */
export const MEMBER_HEIGHT = 40;

export interface MessageRowProps {
  item: MailListItem;
  index: number;
  top: number;
  height: number;
  showPreview: boolean;
  /** slim_template: sender, subject and date on one line. */
  slim?: boolean;
  open: boolean;
  labelsById: ReadonlyMap<number, Label>;
  locale: string;
  now: Date;
  chainOpened: boolean;
  onToggleChain(key: string): void;
}

export const MessageRow = memo(function MessageRow({
  item,
  index,
  top,
  height,
  showPreview,
  slim = false,
  open,
  labelsById,
  locale,
  now,
  chainOpened,
  onToggleChain,
}: MessageRowProps) {
  const { t } = useTranslation();
  const screen = useMailScreen();
  const key = messageKey(item);
  const selected = useSelection((state) => state.keys.has(key));
  const toggle = useSelection((state) => state.toggle);
  const setFullscreen = useSelection((state) => state.setFullscreen);
  const client = useQueryClient();
  const lastClick = useRef(Number.NEGATIVE_INFINITY);

  const who = rowCorrespondents(item, screen.folder?.system) || t('mail.noSender');
  const subject = item.subject.trim() || t('mail.noSubject');
  // A chain's row is unread while any of its messages is, and dated by its latest (a reply in Sent included), as the
  // server places it (item 26); drafts count for neither.
  const members = (item.threads ?? []).filter((member) => !member.flags.draft);
  const latestAt = members.reduce(
    (latest, member) => (Date.parse(member.created_at) > Date.parse(latest) ? member.created_at : latest),
    item.created_at,
  );
  const date = formatListDate(latestAt, now, locale);
  // In Snoozed the row tells when the message comes back rather than when it came (issue 31).
  const until = item.snoozed_until
    ? t('mail.snoozedUntilShort', { time: formatListDate(item.snoozed_until, now, locale) })
    : null;
  const returned = item.returned
    ? item.returned.for === 'snooze'
      ? t('mail.backFromSnooze')
      : t('mail.noReplyYet')
    : null;
  const unread = !item.flags.seen || members.some((member) => !member.flags.seen);
  const chain = item.threads?.length ? item.threads.length + 1 : 0;
  const rowLabels = item.labels.map((id) => labelsById.get(id)).filter((label) => label !== undefined);
  const name = [
    who,
    subject,
    until ?? date,
    returned,
    unread ? t('mail.unread') : null,
    item.flags.flagged ? t('mail.flagged') : null,
    item.has_attachments ? t('mail.hasAttachments') : null,
  ]
    .filter(Boolean)
    .join(', ');

  function onClick(event: MouseEvent) {
    if ((event.target as HTMLElement).closest('input, button')) return;
    // Two clicks within 350 ms (SPEC §9) open the reader over the list on desktop.
    const at = event.timeStamp;
    if (at - lastClick.current < DOUBLE_CLICK_MS) setFullscreen(true);
    lastClick.current = at;
    screen.openMessage(item);
  }

  function onKeyDown(event: KeyboardEvent) {
    if (event.target !== event.currentTarget) return;
    if (event.key === 'Enter') {
      event.preventDefault();
      screen.openMessage(item);
    } else if (event.key === ' ') {
      event.preventDefault();
      toggle(key);
    } else if (
      chain &&
      (event.key === 'ArrowRight') !== chainOpened &&
      /^Arrow(Right|Left)$/.test(event.key)
    ) {
      // As in a tree: right opens the chain, left closes it.
      event.preventDefault();
      onToggleChain(key);
    }
  }

  function onDragStart(event: DragEvent) {
    // Dragging an unselected row drags just that row; dragging a selected one drags the whole selection, and
    // with select-all on that is the whole folder, label or search result, as the toolbar's move takes it.
    const selection = useSelection.getState();
    const inSelection = selection.keys.has(key);
    const keys = inSelection ? selection.keys : new Set([key]);
    const rows = (screen.list?.messages ?? []).filter((candidate) => keys.has(messageKey(candidate)));
    event.dataTransfer.effectAllowed = 'move';
    writeDraggedMessages(event.dataTransfer, {
      messages: toFolderMessages(rows),
      bulk: inSelection && selection.bulk ? bulkRequest(screen.source) : null,
    });
    event.dataTransfer.setData('text/plain', rows.map((row) => row.subject).join('\n'));
  }

  return (
    <div
      role="row"
      aria-label={name}
      aria-rowindex={index + 1}
      aria-selected={selected}
      aria-current={open ? 'true' : undefined}
      tabIndex={open || (index === 0 && !screen.openKey) ? 0 : -1}
      draggable
      data-message-key={key}
      className={clsx(
        styles.row,
        slim && styles.slim,
        unread && styles.unread,
        open && styles.open,
        selected && styles.selected,
      )}
      style={{ transform: `translateY(${top}px)`, height }}
      onClick={onClick}
      onKeyDown={onKeyDown}
      onDragStart={onDragStart}
    >
      <div role="gridcell" className={styles.check}>
        <input
          type="checkbox"
          checked={selected}
          onChange={() => toggle(key)}
          aria-label={t('mail.selectMessage', { subject })}
          tabIndex={-1}
        />
      </div>
      <div role="gridcell" className={styles.body}>
        <div className={styles.line}>
          {unread ? <span className={styles.dot} aria-hidden /> : null}
          <span className={styles.who}>{who}</span>
          {chain ? (
            <button
              type="button"
              tabIndex={-1}
              className={clsx(styles.chain, chainOpened && styles.chainOpened)}
              aria-expanded={chainOpened}
              aria-label={
                chainOpened ? t('mail.chainHide', { count: chain }) : t('mail.chainShow', { count: chain })
              }
              title={t('mail.chain', { count: chain })}
              onClick={() => onToggleChain(key)}
            >
              <Layers aria-hidden />
              {chain}
            </button>
          ) : null}
          {returned ? (
            <span
              className={styles.returned}
              data-returned={item.returned?.for}
              title={
                item.returned?.for === 'snooze'
                  ? t('mail.snoozedUntilShort', { time: formatFullDate(item.returned.at, now, locale) })
                  : undefined
              }
            >
              {item.returned?.for === 'snooze' ? <AlarmClock aria-hidden /> : <CornerDownLeft aria-hidden />}
              {returned}
            </span>
          ) : null}
          {until && item.snoozed_until ? (
            <time
              className={clsx(styles.date, styles.until)}
              dateTime={item.snoozed_until}
              title={formatFullDate(item.snoozed_until, now, locale)}
            >
              <AlarmClock aria-hidden />
              {until}
            </time>
          ) : (
            <time className={styles.date} dateTime={latestAt} title={formatFullDate(latestAt, now, locale)}>
              {date}
            </time>
          )}
        </div>
        <div className={styles.line}>
          <span className={styles.subject}>{subject}</span>
          <LabelDots labels={rowLabels} />
          {item.encrypted ? <Lock className={styles.icon} aria-label={t('mail.encrypted')} /> : null}
          {item.has_attachments ? (
            <Paperclip className={styles.icon} aria-label={t('mail.hasAttachments')} />
          ) : null}
          <button
            type="button"
            tabIndex={-1}
            className={clsx(styles.flag, item.flags.flagged && styles.flagged)}
            aria-pressed={item.flags.flagged}
            aria-label={item.flags.flagged ? t('mail.unflag') : t('mail.flag')}
            title={item.flags.flagged ? t('mail.unflag') : t('mail.flag')}
            onClick={() => {
              const flag = item.flags.flagged ? 'unflagged' : 'flagged';
              // The change's code loads on the first click (DESIGN §5: not in the mail shell's initial JavaScript).
              import('./mutations')
                .then(({ markMessages }) => markMessages(client, { flag, messages: [item] }))
                .catch(() => useNotices.getState().push('error', t('app.chunkFailed')));
            }}
          >
            <Star aria-hidden />
          </button>
        </div>
        {showPreview ? <div className={styles.preview}>{item.preview}</div> : null}
      </div>
    </div>
  );
});

/**
 * A member of an opened chain, drawn under its row. The list row carries only each member's folder, flags and
 * labels; a member in another folder opens in that folder.
 */
export function ChainMember({
  member,
  parent,
  top,
  labelsById,
}: {
  member: ThreadMember;
  parent: MailListItem;
  top: number;
  labelsById: ReadonlyMap<number, Label>;
}) {
  const { t, i18n } = useTranslation();
  const screen = useMailScreen();
  const navigate = useNavigate();
  const key = messageKey(member);
  const open = key === screen.openKey;
  const folder = screen.folders.find((candidate) => candidate.id === member.folder_id);
  const folderName = folder ? folderLabel(folder, t) : '';
  const otherFolder = screen.source.kind === 'folder' && member.folder_id !== screen.source.id;
  // Each member carries its own subject, sender and date (a reply's subject differs from the original's).
  const subject = member.subject.trim() || parent.subject.trim() || t('mail.noSubject');
  const sender = member.from[0]?.name || member.from[0]?.email || '';
  const date = formatListDate(member.created_at, new Date(), i18n.language);
  const unread = !member.flags.seen;
  const memberLabels = member.labels.map((id) => labelsById.get(id)).filter((label) => label !== undefined);
  const name = [
    t('mail.chainMember', { subject }),
    sender,
    folderName,
    date,
    unread ? t('mail.unread') : null,
    member.flags.flagged ? t('mail.flagged') : null,
  ]
    .filter(Boolean)
    .join(', ');

  function openMember() {
    if (otherFolder) navigate(`${folderPath(screen.source.aliasId, member.folder_id)}/${member.uid}`);
    else screen.openMessage(member);
  }

  return (
    <div
      role="row"
      aria-label={name}
      aria-current={open ? 'true' : undefined}
      tabIndex={0}
      data-message-key={key}
      className={clsx(styles.member, unread && styles.unread, open && styles.open)}
      style={{ transform: `translateY(${top}px)`, height: MEMBER_HEIGHT }}
      onClick={openMember}
      onKeyDown={(event) => {
        if (event.key === 'Enter') {
          event.preventDefault();
          openMember();
        }
      }}
    >
      <div role="gridcell" className={styles.memberBody}>
        {unread ? <span className={styles.dot} aria-hidden /> : null}
        {sender ? <span className={styles.memberFolder}>{sender}</span> : null}
        <span className={styles.subject}>{subject}</span>
        {folderName ? <span className={styles.memberFolder}>{folderName}</span> : null}
        <time
          className={styles.memberFolder}
          dateTime={member.created_at}
          title={formatFullDate(member.created_at, new Date(), i18n.language)}
        >
          {date}
        </time>
        <LabelDots labels={memberLabels} />
        {member.flags.flagged ? (
          <Star className={clsx(styles.icon, styles.memberFlag)} aria-label={t('mail.flagged')} />
        ) : null}
      </div>
    </div>
  );
}

/** A message's labels as dots of their colours, each named by its label. */
function LabelDots({ labels }: { labels: readonly { id: number; name: string; color: string }[] }) {
  return labels.map((label) => (
    <span
      key={label.id}
      className={styles.label}
      style={{ background: label.color }}
      title={label.name}
      aria-label={label.name}
    />
  ));
}
