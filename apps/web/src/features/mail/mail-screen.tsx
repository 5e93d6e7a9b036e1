import type { ReactNode } from 'react';
import { useTranslation } from '../../i18n';
import { loadReader } from './loaders';
import clsx from 'clsx';
import { MailOpen, PenSquare } from 'lucide-react';
import { DESKTOP_SPLIT_MIN, SPLITTER_DEFAULT, SPLITTER_MIN_WIDTHS } from '@mailroom/protocol';
import { Navigate } from '../../lib/router';
import { Lazy, lazyChunk } from '../../ui/lazy-route';
import { IconButton } from '../../ui/icon-button';
import { useMediaQuery } from '../../ui/use-media-query';
import { SplitPanes } from '../../ui/split-panes';
import type { ListSource } from './list-model';
import { MailContext } from './mail-context';
import { MailToolbar } from './mail-toolbar';
import { MessageList } from './message-list';
import { useSelection } from './selection-store';
import { useCompose } from '../compose';
import { useMailScreenController } from './use-mail-screen';
import styles from './mail-views.module.css';

// The reader brings DOMPurify and the attachment list: it loads when a message is first opened (DESIGN §5).
const Reader = lazyChunk(loadReader);

/** Where the list's share of the two panes is remembered (SPEC §2 splitter). */
const PANES_STORAGE_KEY = 'mailroom:panes';

/** A folder, label or search screen: the toolbar over the list and the reader (the controller holds the logic). */
export function MailScreen({
  kind,
  title,
}: {
  kind: ListSource['kind'];
  title: (source: ListSource) => string;
}) {
  const { context, redirect, messageInRoute } = useMailScreenController(kind);
  if (redirect !== null) return <Navigate to={redirect} replace />;
  return (
    <MailContext.Provider value={context}>
      <MailToolbar title={title(context.source)} />
      <MailPanes
        hasMessage={context.openKey !== null}
        list={<MessageList />}
        reader={messageInRoute ? <ReaderRoute /> : <ReaderEmpty />}
      />
    </MailContext.Provider>
  );
}

function MailPanes({
  list,
  reader: content,
  hasMessage,
}: {
  list: ReactNode;
  reader: ReactNode;
  hasMessage: boolean;
}) {
  const { t } = useTranslation();
  const desktop = useMediaQuery(`(min-width: ${DESKTOP_SPLIT_MIN}px)`, true);
  const fullscreen = useSelection((state) => state.fullscreen) && hasMessage;
  const reader = (
    <section className={styles.reader} aria-label={t('mail.reader')}>
      {content}
    </section>
  );
  const listPane = (
    // Not a named region: the grid inside is 'Messages', and e2e tests find the reader as the region 'Message'.
    <div className={styles.list}>{list}</div>
  );
  if (desktop && !fullscreen) {
    return (
      <SplitPanes
        className={styles.panes}
        first={listPane}
        second={reader}
        defaultShare={SPLITTER_DEFAULT[0]}
        minWidths={SPLITTER_MIN_WIDTHS}
        storageKey={PANES_STORAGE_KEY}
        label={t('mail.splitter')}
      />
    );
  }
  return (
    <div
      className={clsx(
        styles.panes,
        (hasMessage || fullscreen) && styles.withMessage,
        fullscreen && styles.fullscreen,
      )}
    >
      {listPane}
      {reader}
      {hasMessage ? null : (
        <IconButton
          label={t('sidebar.newMessage')}
          variant="primary"
          className={styles.fab}
          onClick={() => useCompose.getState().openCompose({ mode: 0 })}
        >
          <PenSquare aria-hidden />
        </IconButton>
      )}
    </div>
  );
}

function ReaderEmpty() {
  const { t } = useTranslation();
  return (
    <div className={styles.readerEmpty}>
      <MailOpen aria-hidden />
      <h2>{t('mail.readerEmptyTitle')}</h2>
      <p>{t('mail.readerEmptyText')}</p>
    </div>
  );
}

/** With a msg_id in the route: the reader, loaded on first use. */
function ReaderRoute() {
  return (
    <Lazy>
      <Reader />
    </Lazy>
  );
}
