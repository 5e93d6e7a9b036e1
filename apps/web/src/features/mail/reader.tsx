import { useEffect, useRef, useState } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { LazyPart, lazyChunk } from '../../ui/lazy-route';
import { BreakableAddress } from '../../ui/breakable-address';
import { loadFeatureTexts, useTranslation, withFeatureTexts } from '../../i18n';
import clsx from 'clsx';
import {
  AlarmClock,
  ArrowLeft,
  CornerDownLeft,
  Forward,
  ImageOff,
  Maximize2,
  Minimize2,
  EllipsisVertical,
  Reply,
  ReplyAll,
  Star,
  Trash2,
  X,
} from 'lucide-react';
import {
  COMPOSE_MODE,
  RECIPIENT_TAGS_SHOWN,
  formatFullDate,
  type Mail,
  type MailAddress,
} from '@mailroom/protocol';
import { ApiError, routeUrl, routes } from '../../api/client';
import { folderPath, useLabels } from '../folders';
import { useNavigate } from '../../lib/router';
import { Avatar } from '../../ui/avatar';
import { Button } from '../../ui/button';
import { IconButton } from '../../ui/icon-button';
import { Dropdown } from '../../ui/dropdown';
import { Preloader } from '../../ui/preloader';
import { ownAddresses, useAccount, useUser } from '../account';
import { useMailScreen } from './mail-context';
import { messageKey, shouldShowImages } from './list-model';
import { mailKeys, mailQueries } from './queries';
import { markedSeenByOpening } from './live';
import { useLabelMessages, useMarkMessages } from './mutations';
import { useSelection } from './selection-store';
import { loadComposeWindow, loadScheduledBanner, useCompose } from '../compose';
import { loadReaderDecrypt } from '../decrypt';
import { loadSenderContact } from '../contacts';
import { useMailActions } from './use-mail-actions';
import { SnoozeMenu } from './snooze-menu';
import { AttachmentList, decodeContent, HtmlBody, PlainBody } from '../message-view';
import { SenderTrustBar, VerifiedMark } from './sender-trust';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import styles from './reader.module.css';

// The password prompt and WebCrypto code load only when an encrypted message is opened.
const ReaderDecrypt = lazyChunk(() =>
  Promise.all([loadReaderDecrypt(), loadFeatureTexts()]).then(([chunk]) => chunk),
);

// "Create a filter from this message" and the like load with the reader's menu.
const loadReaderMenuItems = withFeatureTexts(() => import('./reader-menu-items'));
const ReaderMenuItems = lazyChunk(loadReaderMenuItems);

// A message waiting in Scheduled shows when it goes, with Edit, Send now and Cancel (issue 31).
const ScheduledBanner = lazyChunk(withFeatureTexts(loadScheduledBanner));

// "Add sender to contacts" asks the server about the sender once a message is open.
const SenderContact = lazyChunk(loadSenderContact);

/** The open message's query. */
function useMail(ref: { folderId: number; uid: number } | null, showImages: boolean) {
  return useQuery({
    ...mailQueries.mail(ref?.folderId ?? 0, ref?.uid ?? 0, showImages),
    enabled: ref !== null,
    // 'Show images' refetches the same message: keep the text on screen meanwhile (the reader remounts per message).
    placeholderData: keepPreviousData,
  });
}

/** The open message (SPEC §2 reader). Loaded lazily with DOMPurify when a message is first opened. */
export default function Reader() {
  const screen = useMailScreen();
  // A fresh reader per message: the 'show images' choice and the seen-marking belong to one message.
  return <MessageReader key={screen.openKey ?? ''} />;
}

function MessageReader() {
  const { t } = useTranslation();
  const screen = useMailScreen();
  const navigate = useNavigate();
  const account = useAccount();
  const [folderId, uid] = (screen.openKey ?? '0:0').split(':').map(Number) as [number, number];
  const ref = screen.openKey ? { folderId, uid } : null;
  // image_display (SPEC §4): 'always' asks for images at once; without show_images the server applies the
  // setting itself, 'correspondent' included (it knows the contacts and whom the user has written to); when it
  // left them out, the bar offers them.
  // Mail in Junk never loads remote images by itself, and its links ask before they open (issue 30).
  const inJunk = screen.folders.find((f) => f.id === folderId)?.system === 'junk';
  const [showImages, setShowImages] = useState(
    () => !inJunk && shouldShowImages(account?.settings.image_display, false),
  );
  const mail = useMail(ref, showImages);
  const mark = useMarkMessages();

  // Opening marks the message seen here at once, and on the server when it was unseen (SPEC §4).
  const marked = useRef(false);
  const message = mail.data;
  useEffect(() => {
    if (!message || marked.current) return;
    marked.current = true;
    if (message.flags.seen) return;
    markedSeenByOpening(message);
    mark.mutate({ flag: 'seen', messages: [message] });
  }, [message, mark]);

  const error = mail.error;
  useEffect(() => {
    if (!(error instanceof ApiError)) return;
    if (error.status === 404) screen.closeMessage();
    else if (error.code === 'request_folder_id_error' && screen.folders[0]) {
      navigate(folderPath(screen.source.aliasId, screen.folders[0].id), { replace: true });
    }
  }, [error, screen, navigate]);

  if (mail.isPending && !message) {
    return (
      <div className={styles.loading} aria-busy="true">
        <Preloader />
      </div>
    );
  }
  if (!message) {
    return (
      <article className={styles.reader} aria-label={t('mail.message')}>
        <p className={styles.failed} role="alert">
          {t('mail.messageFailed')}
        </p>
      </article>
    );
  }
  return <MessageView message={message} showImages={showImages} onShowImages={() => setShowImages(true)} />;
}

function MessageView({
  message,
  showImages,
  onShowImages,
}: {
  message: Mail;
  showImages: boolean;
  onShowImages(): void;
}) {
  const { t, i18n } = useTranslation();
  const screen = useMailScreen();
  const user = useUser();
  const client = useQueryClient();
  const account = useAccount();
  const labels = useLabels(!user?.info.alias);
  const mark = useMarkMessages();
  const unlabel = useLabelMessages();
  const actions = useMailActions();
  const fullscreen = useSelection((state) => state.fullscreen);
  const setFullscreen = useSelection((state) => state.setFullscreen);
  const from = message.fields.from[0];
  const subject = message.subject.trim() || t('mail.noSubject');
  // Bcc only on mail the user sent: any other message's Bcc header is the sender's claim, not ours to show.
  const sentByUser =
    account !== undefined &&
    message.fields.from.some((address) => ownAddresses(account).has(address.email.toLowerCase()));
  const messageLabels = message.labels
    .map((id) => labels.data?.find((label) => label.id === id))
    .filter((label) => label !== undefined);
  const flagged = message.flags.flagged;
  const system = screen.folders.find((f) => f.id === message.folder_id)?.system;
  const inJunk = system === 'junk';
  const inScheduled = system === 'scheduled';
  // Snooze is offered for mail that is not waiting to be sent, a draft, or already snoozed (issue 31).
  const canSnooze = system !== 'scheduled' && system !== 'snoozed' && system !== 'draft';
  const [junkLink, setJunkLink] = useState<string | null>(null);

  return (
    <article className={styles.reader} aria-label={t('mail.message')} data-message-key={messageKey(message)}>
      <div className={styles.bar}>
        <IconButton
          label={t('mail.backToList')}
          className={clsx(styles.back, fullscreen && styles.backShown)}
          onClick={screen.closeMessage}
        >
          <ArrowLeft aria-hidden />
        </IconButton>
        {/* Reply, reply all, forward: compose modes 1, 2, 3 (SPEC §4). */}
        {(
          [
            [COMPOSE_MODE.REPLY, Reply, t('mail.reply')],
            [COMPOSE_MODE.REPLY_ALL, ReplyAll, t('mail.replyAll')],
            [COMPOSE_MODE.FORWARD, Forward, t('mail.forward')],
          ] as const
        ).map(([mode, Icon, label]) => (
          <IconButton
            label={label}
            key={mode}
            onPointerEnter={() => void loadComposeWindow().catch(() => {})}
            onClick={() => useCompose.getState().openCompose({ mode, source: message })}
          >
            <Icon aria-hidden />
          </IconButton>
        ))}
        <span className={styles.spacer} />
        <IconButton
          label={flagged ? t('mail.unflag') : t('mail.flag')}
          className={clsx(flagged && styles.flagged)}
          aria-pressed={flagged}
          onClick={() => mark.mutate({ flag: flagged ? 'unflagged' : 'flagged', messages: [message] })}
        >
          <Star aria-hidden />
        </IconButton>
        {canSnooze ? <SnoozeMenu onSnooze={actions.snooze} align="end" /> : null}
        <IconButton label={t('mail.delete')} onClick={() => void actions.remove().catch(() => {})}>
          <Trash2 aria-hidden />
        </IconButton>
        <IconButton
          label={fullscreen ? t('mail.exitFullscreen') : t('mail.fullscreen')}
          className={styles.fullscreenToggle}
          onClick={() => setFullscreen(!fullscreen)}
        >
          {fullscreen ? <Minimize2 aria-hidden /> : <Maximize2 aria-hidden />}
        </IconButton>
        <Dropdown
          align="end"
          prefetch={loadReaderMenuItems}
          trigger={
            <IconButton label={t('mail.messageMenu')}>
              <EllipsisVertical aria-hidden />
            </IconButton>
          }
          content={(Menu) => (
            // Filters are settings, which alias-only users do not have (SPEC §6).
            <ReaderMenuItems Menu={Menu} message={message} filters={!user?.info.alias} />
          )}
        />
      </div>

      <header className={styles.header}>
        <h1 className={styles.subject}>{subject}</h1>
        {messageLabels.length > 0 ? (
          <ul className={styles.labels} aria-label={t('labels.title')}>
            {messageLabels.map((label) => (
              <li key={label.id} className={styles.label}>
                <span className={styles.labelDot} style={{ background: label.color }} aria-hidden />
                {label.name}
                <button
                  type="button"
                  className={styles.labelRemove}
                  aria-label={t('mail.removeLabel', { label: label.name })}
                  title={t('mail.removeLabel', { label: label.name })}
                  onClick={() => unlabel.mutate({ labelId: label.id, add: false, messages: [message] })}
                >
                  <X aria-hidden />
                </button>
              </li>
            ))}
          </ul>
        ) : null}
        <div className={styles.people}>
          <Avatar name={from?.name} email={from?.email} size={40} />
          <div className={styles.who}>
            <div className={styles.fromLine}>
              <span className={styles.fromName}>{from?.name || from?.email || t('mail.noSender')}</span>
              <VerifiedMark trust={message.trust} />
              {from?.name ? (
                <span className={styles.fromEmail}>
                  <BreakableAddress address={from.email} />
                </span>
              ) : null}
              {/* Contacts are the full member's (SPEC §6); the user's own mail needs no such offer. */}
              {from?.email && !user?.info.alias && !sentByUser ? (
                <LazyPart>
                  <SenderContact
                    name={from.name}
                    email={from.email}
                    onAdded={() => void client.invalidateQueries({ queryKey: mailKeys.mails })}
                  />
                </LazyPart>
              ) : null}
            </div>
            <Recipients label={t('mail.to')} people={message.fields.to} />
            <Recipients label={t('mail.cc')} people={message.fields.cc} />
            {sentByUser ? <Recipients label={t('mail.bcc')} people={message.fields.bcc} /> : null}
          </div>
          <time className={styles.date} dateTime={message.created_at}>
            {formatFullDate(message.created_at, new Date(), i18n.language)}
          </time>
        </div>
      </header>

      <SenderTrustBar trust={message.trust} />
      {inScheduled ? (
        <LazyPart>
          <ScheduledBanner message={message} onDone={screen.closeMessage} />
        </LazyPart>
      ) : null}

      {system === 'snoozed' && message.snoozed_until ? (
        <div className={styles.imagesBar} role="status" data-snoozed>
          <AlarmClock aria-hidden />
          <span>
            {t('mail.snoozedUntil', {
              time: formatFullDate(message.snoozed_until, new Date(), i18n.language),
            })}
          </span>
          <Button variant="secondary" onClick={() => void actions.unsnooze().catch(() => {})}>
            {t('mail.unsnooze')}
          </Button>
        </div>
      ) : null}
      {message.returned ? (
        <div className={styles.imagesBar} role="note" data-returned={message.returned.for}>
          {message.returned.for === 'snooze' ? <AlarmClock aria-hidden /> : <CornerDownLeft aria-hidden />}
          <span>
            {message.returned.for === 'snooze'
              ? t('mail.returnedSnooze', {
                  time: formatFullDate(message.returned.at, new Date(), i18n.language),
                })
              : t('mail.returnedFollowUp')}
          </span>
        </div>
      ) : null}

      {message.images_blocked && !showImages ? (
        <div className={styles.imagesBar} role="status">
          <ImageOff aria-hidden />
          <span>{t('mail.imagesBlocked')}</span>
          <Button variant="secondary" onClick={onShowImages}>
            {t('mail.showImages')}
          </Button>
        </div>
      ) : null}

      {message.attachments.length > 0 ? (
        <AttachmentList
          className={styles.attachments}
          attachments={message.attachments.map((attachment) => ({
            key: attachment.id,
            name: attachment.name,
            size: attachment.size,
            href: routeUrl(routes.attachment, {
              params: { id: attachment.id },
              query: { message_uid: message.uid, folder_id: message.folder_id },
            }),
          }))}
        />
      ) : null}

      <div className={styles.body}>
        {message.encrypted ? (
          <LazyPart fallback={<Preloader />}>
            <ReaderDecrypt key={messageKey(message)} folderId={message.folder_id} uid={message.uid} />
          </LazyPart>
        ) : message.content_type === 'text/html' ? (
          <HtmlBody
            html={decodeContent(message.content)}
            title={subject}
            onLink={inJunk ? setJunkLink : undefined}
          />
        ) : (
          <PlainBody className={styles.plain} text={decodeContent(message.content)} />
        )}
      </div>
      <ConfirmDialog
        open={junkLink !== null}
        onOpenChange={(open) => !open && setJunkLink(null)}
        title={t('mail.junkLinkTitle')}
        text={t('mail.junkLinkText', { url: junkLink ?? '' })}
        confirmLabel={t('mail.junkLinkOpen')}
        danger
        onConfirm={() => {
          if (junkLink) window.open(junkLink, '_blank', 'noopener,noreferrer');
          setJunkLink(null);
        }}
        onError={() => setJunkLink(null)}
      />
    </article>
  );
}

/** One header's recipients (To, Cc or Bcc), SPEC §9: two tags, the rest behind '+N'. */
function Recipients({ label, people }: { label: string; people: MailAddress[] }) {
  const { t } = useTranslation();
  const [expanded, setExpanded] = useState(false);
  if (people.length === 0) return null;
  const shown = expanded ? people : people.slice(0, RECIPIENT_TAGS_SHOWN);
  const hidden = people.length - shown.length;
  return (
    <div className={styles.recipients} role="group" aria-label={label}>
      <span className={styles.recipientsLabel} aria-hidden>
        {label}:
      </span>
      {shown.map((person, index) => (
        <span key={`${person.email}-${index}`} className={styles.tag} title={person.email}>
          {person.name || person.email}
        </span>
      ))}
      {hidden > 0 ? (
        <button
          type="button"
          className={styles.more}
          aria-label={t('mail.moreRecipients', { count: hidden })}
          onClick={() => setExpanded(true)}
        >
          +{hidden}
        </button>
      ) : null}
    </div>
  );
}
