import { useMemo } from 'react';
import { useMatch, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Mail, PenSquare, Plus, X } from 'lucide-react';
import { useAccount, useUser } from '../auth/queries';
import { Button } from '../../ui/button';
import { Select } from '../../ui/select';
import { folderPath } from '../../app/paths';
import { useUi } from '../../app/ui-store';
import { buildFolderSections, findInbox, type SystemFolderNames } from './folder-order';
import { FolderTree } from './folder-tree';
import { QuotaBar } from './quota-bar';
import { ShellFooter } from './shell-footer';
import { UserMenu } from './user-menu';
import { useFolders } from './queries';
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

export function Sidebar() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useUser();
  const account = useAccount();
  const folders = useFolders();
  const setSidebarOpen = useUi((state) => state.setSidebarOpen);
  const folderMatch = useMatch('/mail/folder/:a_id/:f_id/*');
  const anyMailMatch = useMatch('/mail/:kind/:a_id/*');
  const aliasId = anyMailMatch?.params.a_id ?? 'all';
  const activeFolderId = folderMatch ? Number(folderMatch.params.f_id) : null;
  const isAliasUser = Boolean(user?.info.alias);

  const names: SystemFolderNames = {
    inbox: t('folders.system.inbox'),
    sent: t('folders.system.sent'),
    draft: t('folders.system.draft'),
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
          <Button
            variant="ghost"
            iconOnly
            className={styles.close}
            aria-label={t('common.closeMenu')}
            onClick={() => setSidebarOpen(false)}
          >
            <X aria-hidden />
          </Button>
        </div>
        <UserMenu />
        <Button
          variant="primary"
          block
          disabled
          title={t('sidebar.newMessageSoon')}
          className={styles.compose}
        >
          <PenSquare aria-hidden />
          {t('sidebar.newMessage')}
        </Button>
        {aliasOptions.length > 1 ? (
          <Select
            label={t('sidebar.address')}
            value={aliasOptions.some((option) => option.value === aliasId) ? aliasId : 'all'}
            options={aliasOptions}
            onChange={chooseAlias}
            disabled={isAliasUser}
          />
        ) : null}
      </div>

      <nav className={styles.nav} aria-label={t('sidebar.navigation')}>
        <h2 className={styles.sectionTitle} id="folders-title">
          {t('folders.title')}
        </h2>
        {folders.isPending ? <SkeletonRows /> : null}
        {folders.isError ? <p className={styles.muted}>{t('folders.loadFailed')}</p> : null}
        {folders.data ? (
          <FolderTree
            nodes={sections.main}
            label={t('folders.title')}
            aliasId={aliasId}
            activeFolderId={activeFolderId}
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
            />
          </>
        ) : null}
        {/* Alias-only users do not see labels (SPEC §6). */}
        {isAliasUser ? null : (
          <>
            <div className={styles.sectionHeader}>
              <h2 className={styles.sectionTitle}>{t('labels.title')}</h2>
              <Button
                variant="ghost"
                iconOnly
                disabled
                aria-label={t('labels.create')}
                title={t('common.comingSoon')}
              >
                <Plus aria-hidden />
              </Button>
            </div>
            <p className={styles.muted}>{t('labels.empty')}</p>
          </>
        )}
      </nav>

      <div className={styles.bottom}>
        {account ? <QuotaBar quota={account.quota} /> : null}
        <ShellFooter />
      </div>
    </div>
  );
}
