import { useEffect, useMemo, useRef } from 'react';
import { LazyPart, lazyChunk } from '../../ui/lazy-route';
import { useTranslation } from '../../i18n';
import { CloudOff, FolderOpen, SearchX } from 'lucide-react';
import { useLabels } from '../folders';
import { useAccount, useUser } from '../account';
import { Button } from '../../ui/button';
import { useMailScreen } from './mail-context';
import { messageKey } from './list-model';
import { useSelection } from './selection-store';
import { ChainMember, MEMBER_HEIGHT, MessageRow } from './message-row';
import styles from './message-list.module.css';

const ROW_HEIGHT = { withPreview: 76, compact: 56, slim: 40 } as const;
const SKELETON_ROWS = 12;
/** Up to this many rows a page is drawn whole; longer pages (the limit parameter) are virtualised. */
const PLAIN_MAX = 100;

const VirtualRows = lazyChunk(() => import('./virtual-rows'));

/**
 * The list of SPEC §2, a grid of fixed-height rows. Pages longer than PLAIN_MAX rows are virtualised with
 * @tanstack/react-virtual, loaded only then, so 1,000 rows scroll smoothly and 30 cost nothing extra.
 */
export function MessageList() {
  const { t, i18n } = useTranslation();
  const screen = useMailScreen();
  const account = useAccount();
  const user = useUser();
  const labels = useLabels(!user?.info.alias);
  const scrollRef = useRef<HTMLDivElement>(null);
  // slim_template: one line a message (sender, subject, date), no preview; else message_preview decides.
  const slim = account?.settings.slim_template ?? false;
  const showPreview = !slim && (account?.settings.message_preview ?? true);
  const rowHeight = slim ? ROW_HEIGHT.slim : showPreview ? ROW_HEIGHT.withPreview : ROW_HEIGHT.compact;
  const items = screen.list?.messages;
  const count = items?.length ?? 0;

  // SPEC §3 isChainOpened; kept in the selection store so the keyboard (mail-views) walks into opened chains.
  const openedChains = useSelection((state) => state.openedChains);
  const toggleChain = useSelection((state) => state.toggleChain);
  const sizes = useMemo(
    () =>
      (items ?? []).map((item) =>
        openedChains.has(messageKey(item))
          ? rowHeight + (item.threads?.length ?? 0) * MEMBER_HEIGHT
          : rowHeight,
      ),
    [items, openedChains, rowHeight],
  );
  const tops = useMemo(() => {
    const result: number[] = [];
    let at = 0;
    for (const size of sizes) {
      result.push(at);
      at += size;
    }
    result.push(at);
    return result;
  }, [sizes]);
  const sizesKey = [...openedChains].join(',');

  const labelsById = useMemo(
    () => new Map((labels.data ?? []).map((label) => [label.id, label] as const)),
    [labels.data],
  );

  // Keyboard stepping may open a row that is scrolled away: bring it into view.
  const openIndex =
    items && screen.openKey ? items.findIndex((item) => messageKey(item) === screen.openKey) : -1;
  const virtual = count > PLAIN_MAX;
  useEffect(() => {
    if (virtual || !screen.openKey) return;
    const row = scrollRef.current?.querySelector<HTMLElement>(`[data-message-key="${screen.openKey}"]`);
    row?.scrollIntoView?.({ block: 'nearest' });
  }, [virtual, screen.openKey]);

  if (screen.listFailed) {
    return (
      <div className={styles.empty} role="alert">
        <CloudOff aria-hidden />
        <h2>{t('mail.listFailed')}</h2>
        <Button variant="primary" onClick={screen.retryList}>
          {t('app.retry')}
        </Button>
      </div>
    );
  }

  if (screen.listPending || !items) {
    return (
      <div className={styles.scroller} aria-busy="true" aria-label={t('mail.list')}>
        {Array.from({ length: SKELETON_ROWS }, (_, index) => (
          <div key={index} className={styles.skeleton} style={{ height: rowHeight }} aria-hidden>
            <span className={styles.skeletonLine} style={{ width: `${40 + ((index * 17) % 35)}%` }} />
            <span className={styles.skeletonLine} style={{ width: `${55 + ((index * 23) % 40)}%` }} />
            {showPreview ? (
              <span className={styles.skeletonLine} style={{ width: `${30 + ((index * 13) % 50)}%` }} />
            ) : null}
          </div>
        ))}
      </div>
    );
  }

  if (items.length === 0) {
    const search = screen.source.kind === 'search';
    return (
      <div className={styles.empty} role="status">
        {search ? <SearchX aria-hidden /> : <FolderOpen aria-hidden />}
        <h2>{search ? t('mail.searchEmptyTitle') : t('mail.emptyTitle')}</h2>
        <p>
          {search
            ? t('mail.searchEmptyText')
            : screen.source.kind === 'label'
              ? t('mail.labelEmptyText')
              : t('mail.emptyText')}
        </p>
      </div>
    );
  }

  const now = new Date();
  function renderRow(index: number, top: number) {
    const item = items![index]!;
    const key = messageKey(item);
    const chainOpened = openedChains.has(key) && (item.threads?.length ?? 0) > 0;
    const row = (
      <MessageRow
        key={messageKey(item)}
        item={item}
        index={index}
        top={top}
        height={rowHeight}
        showPreview={showPreview}
        slim={slim}
        open={messageKey(item) === screen.openKey}
        labelsById={labelsById}
        locale={i18n.language}
        now={now}
        chainOpened={chainOpened}
        onToggleChain={toggleChain}
      />
    );
    if (!chainOpened) return row;
    return [
      row,
      ...item.threads!.map((member, position) => (
        <ChainMember
          key={`${key}/${messageKey(member)}`}
          member={member}
          parent={item}
          top={top + rowHeight + position * MEMBER_HEIGHT}
          labelsById={labelsById}
        />
      )),
    ];
  }
  const retention = screen.folder?.system === 'junk' ? screen.folder.retention_days : undefined;
  return (
    <div ref={scrollRef} className={styles.scroller} data-testid="message-list-scroller">
      {retention ? <p className={styles.retention}>{t('mail.junkRetention', { count: retention })}</p> : null}
      <div
        role="grid"
        aria-label={t('mail.list')}
        aria-rowcount={screen.list?.total ?? count}
        aria-multiselectable="true"
        className={styles.grid}
        style={{ height: tops[count] }}
      >
        {virtual ? (
          <LazyPart
            fallback={Array.from({ length: PLAIN_MAX }, (_, index) => renderRow(index, tops[index]!))}
          >
            <VirtualRows
              count={count}
              rowHeight={rowHeight}
              sizeOf={(index) => sizes[index] ?? rowHeight}
              sizesKey={sizesKey}
              scrollRef={scrollRef}
              openIndex={openIndex}
              getKey={(index) => messageKey(items[index]!)}
              renderRow={renderRow}
            />
          </LazyPart>
        ) : (
          items.map((_, index) => renderRow(index, tops[index]!))
        )}
      </div>
    </div>
  );
}
