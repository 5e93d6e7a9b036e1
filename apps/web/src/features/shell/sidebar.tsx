import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation, withFeatureTexts } from '../../i18n';
import clsx from 'clsx';
import { FolderPlus, Mail, Plus, X } from 'lucide-react';
import { useAccount, useUser } from '../account';
import { IconButton } from '../../ui/icon-button';
import { LazyPart, lazyChunk } from '../../ui/lazy-route';
import { Select } from '../../ui/select';
import { Link, useMatch, useNavigate } from '../../lib/router';
import {
  buildFolderSections,
  findInbox,
  flattenFolders,
  folderPath,
  FolderTree,
  ItemMenu,
  itemMenuHost,
  labelPath,
  loadCreateDialogs,
  useFolders,
  useLabels,
  type FolderTreeProps,
  type SystemFolderNames,
} from '../folders';
import { useUi } from './ui-store';
import { QuotaBar } from './quota-bar';
import { ShellFooter } from './shell-footer';
import { UserMenu } from './user-menu';

// Dialogs (Radix) load when first opened, not with the shell (DESIGN §5).
const CreateFolderDialog = lazyChunk(() =>
  loadCreateDialogs().then((m) => ({ default: m.CreateFolderDialog })),
);
const CreateLabelDialog = lazyChunk(() =>
  loadCreateDialogs().then((m) => ({ default: m.CreateLabelDialog })),
);
// The addresses delegated to this member: once the first screen is drawn (DESIGN §5: the shell's initial JS).
const DelegatedAddresses = lazyChunk(withFeatureTexts(() => import('./delegated-addresses')));
import addressList from '../../ui/address-list.module.css';
import styles from './sidebar.module.css';

function SkeletonRows() {
  return (
    <div className={styles.skeleton} aria-hidden>
      {[72, 56, 64, 48, 52].map((width, index) => (
        <span key={index} style={{ width: `${width}%` }} />
      ))}
    </div>
  );
}

export interface SidebarProps {
  /** The 'New message' button (compose's), placed under the user menu. */
  newMessage?: ReactNode;
  /** What a drop of messages on a folder does (mail's move); without it the folders accept no drop. */
  onDropMessages?: FolderTreeProps['onDropMessages'];
}

export function Sidebar({ newMessage, onDropMessages }: SidebarProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useUser();
  const account = useAccount();
  const folders = useFolders();
  const setSidebarOpen = useUi((state) => state.setSidebarOpen);
  const settled = useUi((state) => state.settled);
  const folderMatch = useMatch('/mail/folder/:a_id/:f_id/*?');
  const anyMailMatch = useMatch('/mail/:kind/:a_id/*?');
  const aliasId = anyMailMatch?.a_id ?? 'all';
  const activeFolderId = folderMatch ? Number(folderMatch.f_id) : null;
  const isAliasUser = Boolean(user?.info.alias);
  const labels = useLabels(!isAliasUser);
  const labelMatch = useMatch('/mail/label/:a_id/:l_id/*?');
  const activeLabelId = labelMatch ? Number(labelMatch.l_id) : null;
  const [dialog, setDialog] = useState<'folder' | 'label' | null>(null);
  const flatFolders = useMemo(() => (folders.data ? flattenFolders(folders.data) : []), [folders.data]);
  // Alias-only users cannot add messages to folders (SPEC §6): a drop on a folder is not offered to them either.
  const onDrop = isAliasUser ? undefined : onDropMessages;

  const names: SystemFolderNames = {
    inbox: t('folders.system.inbox'),
    sent: t('folders.system.sent'),
    draft: t('folders.system.draft'),
    scheduled: t('folders.system.scheduled'),
    snoozed: t('folders.system.snoozed'),
    trash: t('folders.system.trash'),
    junk: t('folders.system.junk'),
  };
  const namesKey = Object.values(names).join('|');
  // eslint-disable-next-line react-hooks/exhaustive-deps -- names change only with the language, tracked by namesKey
  const sections = useMemo(() => buildFolderSections(folders.data ?? [], names), [folders.data, namesKey]);

  const aliasOptions = [
    { value: 'all', label: t('sidebar.allAddresses') },
    ...(account?.aliases ?? []).map((alias) => ({ value: String(alias.id), label: alias.email })),
  ];

  function chooseAlias(value: string) {
    const target = activeFolderId ?? findInbox(folders.data ?? [])?.id;
    if (target !== undefined) navigate(folderPath(value, target));
  }

  return (
    <div className={styles.sidebar}>
      <div className={styles.top}>
        <div className={styles.brand}>
          <Mail className={styles.brandIcon} aria-hidden />
          <span>{t('app.name')}</span>
          <IconButton
            label={t('common.closeMenu')}
            className={styles.close}
            onClick={() => setSidebarOpen(false)}
          >
            <X aria-hidden />
          </IconButton>
        </div>
        <UserMenu />
        <div className={styles.compose}>{newMessage}</div>
        {aliasOptions.length > 1 && (account?.settings.slim_list_aliases || isAliasUser) ? (
          <Select
            label={t('sidebar.address')}
            value={aliasOptions.some((option) => option.value === aliasId) ? aliasId : 'all'}
            options={aliasOptions}
            onChange={chooseAlias}
            disabled={isAliasUser}
          />
        ) : aliasOptions.length > 1 ? (
          // slim_list_aliases off: every address in view, one click away.
          <ul className={addressList.list} aria-label={t('sidebar.address')}>
            {aliasOptions.map((option) => {
              const current = option.value === (aliasId === 'all' ? 'all' : aliasId);
              return (
                <li key={option.value}>
                  <button
                    type="button"
                    className={clsx(addressList.address, current && styles.addressCurrent)}
                    aria-current={current ? 'true' : undefined}
                    onClick={() => chooseAlias(option.value)}
                  >
                    {option.label}
                  </button>
                </li>
              );
            })}
          </ul>
        ) : null}
        {/* Alias-only and delegated sessions, and one in another's mailbox, have no delegations of their own. */}
        {settled && !isAliasUser && !user?.info.impersonator ? (
          <LazyPart>
            <DelegatedAddresses />
          </LazyPart>
        ) : null}
      </div>

      <nav className={styles.nav} aria-label={t('sidebar.navigation')}>
        <div className={styles.sectionHeader}>
          <h2 className={styles.sectionTitle} id="folders-title">
            {t('folders.title')}
          </h2>
          {/* Alias-only users cannot create folders or labels (SPEC §6). */}
          {isAliasUser ? null : (
            <IconButton label={t('folders.create')} onClick={() => setDialog('folder')}>
              <FolderPlus aria-hidden />
            </IconButton>
          )}
        </div>
        {folders.isPending ? <SkeletonRows /> : null}
        {folders.isError && !folders.data ? <p className={styles.muted}>{t('folders.loadFailed')}</p> : null}
        {folders.data ? (
          <FolderTree
            nodes={sections.main}
            label={t('folders.title')}
            aliasId={aliasId}
            activeFolderId={activeFolderId}
            manage={!isAliasUser}
            onDropMessages={onDrop}
          />
        ) : null}
        {sections.collectors.length > 0 ? (
          <>
            <h2 className={styles.sectionTitle}>{t('folders.collectors')}</h2>
            <FolderTree
              nodes={sections.collectors}
              label={t('folders.collectors')}
              aliasId={aliasId}
              activeFolderId={activeFolderId}
              collector
              onDropMessages={onDrop}
            />
          </>
        ) : null}
        {/* Alias-only users do not see labels (SPEC §6). */}
        {isAliasUser ? null : (
          <>
            <div className={styles.sectionHeader}>
              <h2 className={styles.sectionTitle}>{t('labels.title')}</h2>
              <IconButton label={t('labels.create')} onClick={() => setDialog('label')}>
                <Plus aria-hidden />
              </IconButton>
            </div>
            {labels.data && labels.data.length > 0 ? (
              <ul className={styles.labels} aria-label={t('labels.title')}>
                {labels.data.map((label) => (
                  <li
                    key={label.id}
                    className={itemMenuHost}
                    data-active={label.id === activeLabelId || undefined}
                  >
                    <Link
                      to={labelPath(aliasId, label.id)}
                      className={clsx(styles.labelLink, label.id === activeLabelId && styles.labelActive)}
                      aria-current={label.id === activeLabelId ? 'page' : undefined}
                    >
                      <span className={styles.labelDot} style={{ background: label.color }} aria-hidden />
                      <span className={styles.labelName}>{label.name}</span>
                    </Link>
                    <ItemMenu item={{ kind: 'label', id: label.id, name: label.name, color: label.color }} />
                  </li>
                ))}
              </ul>
            ) : (
              <p className={styles.muted}>
                {labels.isError && !labels.data ? t('labels.loadFailed') : t('labels.empty')}
              </p>
            )}
          </>
        )}
        {dialog ? (
          <LazyPart variant="notice" onFailed={() => setDialog(null)}>
            {dialog === 'folder' ? (
              <CreateFolderDialog
                open
                onOpenChange={(open) => !open && setDialog(null)}
                folders={flatFolders}
              />
            ) : (
              <CreateLabelDialog
                open
                onOpenChange={(open) => !open && setDialog(null)}
                folders={flatFolders}
              />
            )}
          </LazyPart>
        ) : null}
      </nav>

      <div className={styles.bottom}>
        {account ? <QuotaBar quota={account.quota} /> : null}
        <ShellFooter />
      </div>
    </div>
  );
}
