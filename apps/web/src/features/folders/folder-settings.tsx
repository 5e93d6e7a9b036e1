import { useState, type FormEvent } from 'react';
import { Eraser, Folder as FolderIcon, FolderX, Lock, Pencil, Trash2 } from 'lucide-react';
import { folderDisplayName, folderNameProblem, type Folder } from '@mailroom/protocol';
import { loadErrorTexts, translateErrorCode, useTranslation, type Translate } from '../../i18n';
import { Link, useNavigate } from '../../lib/router';
import { Button, buttonClass } from '../../ui/button';
import { IconButton, IconLink } from '../../ui/icon-button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { raiseSuccess } from '../../ui/notices-store';
import page from '../../ui/settings-page.module.css';
import { FolderFields, useFolderFields } from './folder-fields';
import { SettingsPage } from '../../ui/settings-editor-header';
import { buildFolderSections, flattenFolders, type FolderNode, type SystemFolderNames } from './folder-order';
import { folderLabel } from './folder-label';
import { useCreateFolder, useDeleteFolder, useEmptyFolder, useUpdateFolder } from './mutations';
import { useFolders } from './queries';
import styles from './settings-screens.module.css';
import { SettingsList, SettingsSkeleton, SettingsState } from '../../ui/settings-list';
import { FormActions } from '../../ui/form-parts';

export const foldersSettingsPath = '/settings/folders';
const editFolderPath = (id: number) => `${foldersSettingsPath}/edit/${id}`;

function systemNames(t: Translate): SystemFolderNames {
  return {
    inbox: t('folders.system.inbox'),
    sent: t('folders.system.sent'),
    draft: t('folders.system.draft'),
    scheduled: t('folders.system.scheduled'),
    snoozed: t('folders.system.snoozed'),
    trash: t('folders.system.trash'),
    junk: t('folders.system.junk'),
  };
}

/** The tree in the sidebar's order, depth first, each folder with its depth. */
function rowsOf(nodes: readonly FolderNode[]): FolderNode[] {
  return nodes.flatMap((node) => [node, ...rowsOf(node.children)]);
}

/**
 * Each folder's parent as people see it: a folder right under INBOX is at the top level (null), as the sidebar
 * shows it and as POST folders takes it.
 */
export function parentsOf(folders: readonly Folder[]): Map<number, number | null> {
  const parents = new Map<number, number | null>();
  const walk = (list: readonly Folder[], parent: Folder | null) => {
    for (const folder of list) {
      parents.set(folder.id, parent && parent.system !== 'inbox' ? parent.id : null);
      walk(folder.subfolders, folder);
    }
  };
  walk(folders, null);
  return parents;
}

/** The folders a folder may move under: user folders but itself and its own subfolders (that would be a loop). */
export function parentChoices(folders: readonly Folder[], moving: Folder | null): Folder[] {
  const excluded = new Set(moving ? flattenFolders([moving]).map((folder) => folder.id) : []);
  return flattenFolders(folders).filter((folder) => folder.system === null && !excluded.has(folder.id));
}

/** settings/folders, create and edit/{id} (SPEC §2): the folder tree with its counts, and a folder's form. */
export default function FolderSettings({ action, id }: { action?: 'create' | 'edit'; id?: string }) {
  const folders = useFolders();
  const { t } = useTranslation();
  if (folders.isError && !folders.data) return <LoadFailed onRetry={() => void folders.refetch()} />;
  if (!folders.data) return <ListSkeleton />;
  if (action === 'create') return <FolderForm folders={folders.data} folder={null} />;
  if (action === 'edit') {
    const folder = flattenFolders(folders.data).find((candidate) => String(candidate.id) === id);
    if (!folder || folder.system !== null)
      return (
        <section className={page.page}>
          <SettingsState role="alert">
            <FolderX aria-hidden />
            <p>{folder ? t('folderSettings.systemLocked') : t('folderSettings.notFound')}</p>
            <Link to={foldersSettingsPath} className={buttonClass()}>
              {t('folderSettings.backToList')}
            </Link>
          </SettingsState>
        </section>
      );
    return <FolderForm key={folder.id} folders={folders.data} folder={folder} />;
  }
  return <FolderList folders={folders.data} />;
}

function ListSkeleton() {
  return (
    <section className={page.page} aria-busy="true">
      <SettingsSkeleton rows={6} />
    </section>
  );
}

function LoadFailed({ onRetry }: { onRetry(): void }) {
  const { t } = useTranslation();
  return (
    <section className={page.page}>
      <SettingsState role="alert">
        <FolderX aria-hidden />
        <p>{t('folders.loadFailed')}</p>
        <Button onClick={onRetry}>{t('common.refresh')}</Button>
      </SettingsState>
    </section>
  );
}

type Pending = { kind: 'delete' | 'empty' | 'subfolders'; folder: Folder; name: string };

function FolderList({ folders }: { folders: readonly Folder[] }) {
  const { t } = useTranslation();
  const remove = useDeleteFolder();
  const empty = useEmptyFolder();
  const [pending, setPending] = useState<Pending | null>(null);
  const sections = buildFolderSections(folders, systemNames(t));
  const rows = [...rowsOf(sections.main), ...rowsOf(sections.collectors)];
  const own = rows.filter((row) => row.folder.system === null).length;

  return (
    <SettingsPage
      title={t('folderSettings.title')}
      create={{ to: `${foldersSettingsPath}/create`, label: t('folders.create') }}
    >
      <p className={page.hint}>{t('folderSettings.intro')}</p>

      <SettingsList aria-label={t('folderSettings.listLabel')}>
        {rows.map(({ folder, displayName, depth, children }) => {
          const system = folder.system !== null;
          return (
            <li
              key={folder.id}
              className={page.item}
              aria-label={displayName}
              style={{ paddingLeft: `calc(var(--space-3) + ${depth * 20}px)` }}
            >
              {system ? (
                <Lock className={styles.icon} aria-label={t('folderSettings.system')} />
              ) : (
                <FolderIcon className={styles.icon} aria-hidden />
              )}
              <span className={page.itemMain}>
                {system ? (
                  <span className={page.itemName}>{displayName}</span>
                ) : (
                  <Link to={editFolderPath(folder.id)} className={page.itemName}>
                    {displayName}
                  </Link>
                )}
                <span className={page.itemSub}>
                  {t('folderSettings.counts', { unread: folder.unread, total: folder.total })}
                </span>
              </span>
              <span className={page.itemActions}>
                <IconButton
                  label={t('folderSettings.emptyFor', { name: displayName })}
                  tooltip={t('folderSettings.empty')}
                  disabled={folder.total === 0}
                  onClick={() => setPending({ kind: 'empty', folder, name: displayName })}
                >
                  <Eraser aria-hidden />
                </IconButton>
                {system ? null : (
                  <>
                    <IconLink
                      to={editFolderPath(folder.id)}
                      label={t('folderSettings.editFor', { name: displayName })}
                      tooltip={t('folderSettings.edit')}
                    >
                      <Pencil aria-hidden />
                    </IconLink>
                    <IconButton
                      label={t('folderSettings.deleteFor', { name: displayName })}
                      tooltip={children.length > 0 ? t('folderSettings.hasChildren') : t('folders.delete')}
                      onClick={() =>
                        setPending({
                          kind: children.length > 0 ? 'subfolders' : 'delete',
                          folder,
                          name: displayName,
                        })
                      }
                    >
                      <Trash2 aria-hidden />
                    </IconButton>
                  </>
                )}
              </span>
            </li>
          );
        })}
      </SettingsList>
      {own === 0 ? <p className={page.hint}>{t('folderSettings.noOwn')}</p> : null}

      {pending?.kind === 'subfolders' ? (
        // A folder with subfolders cannot be deleted (folder_children_exist): said before anything is asked.
        <ConfirmDialog
          open
          onOpenChange={(open) => !open && setPending(null)}
          title={t('folderSettings.subfoldersTitle', { name: pending.name })}
          text={t('folderSettings.subfoldersText')}
          confirmLabel={t('common.close')}
          acknowledgeOnly
          onConfirm={() => setPending(null)}
          onError={() => setPending(null)}
        />
      ) : (
        <ConfirmDialog
          open={pending !== null}
          onOpenChange={(open) => !open && setPending(null)}
          title={
            pending?.kind === 'empty'
              ? t('folderSettings.emptyTitle', { name: pending.name })
              : t('folders.deleteTitle', { name: pending?.name ?? '' })
          }
          text={pending?.kind === 'empty' ? t('folderSettings.emptyText') : t('folders.deleteText')}
          confirmLabel={pending?.kind === 'empty' ? t('folderSettings.empty') : t('folders.delete')}
          danger
          onConfirm={async () => {
            const { kind, folder } = pending!;
            if (kind === 'empty') {
              await empty.mutateAsync(folder.id);
              raiseSuccess(t('folderSettings.emptied'));
            } else {
              await remove.mutateAsync(folder.id);
              raiseSuccess(t('folders.deleted'));
            }
            setPending(null);
          }}
          // The refusal (folder_children_exist…) is shown by the error dialog; this one closes.
          onError={() => setPending(null)}
        />
      )}
    </SettingsPage>
  );
}

function FolderForm({ folders, folder }: { folders: readonly Folder[]; folder: Folder | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateFolder();
  const update = useUpdateFolder();
  const parents = parentsOf(folders);
  const currentParent = folder ? (parents.get(folder.id) ?? null) : null;
  const { name, parent, setError, fields } = useFolderFields(
    folder ? folderDisplayName(folder.name) : '',
    currentParent === null ? '' : String(currentParent),
  );
  const busy = create.isPending || update.isPending;

  function submit(event: FormEvent) {
    event.preventDefault();
    const problem = folderNameProblem(name);
    if (problem) {
      void loadErrorTexts().then(() =>
        setError(
          problem === 'name_not_indicated'
            ? t('folders.nameRequired')
            : (translateErrorCode(problem) ?? t('folderSettings.nameInvalid')),
        ),
      );
      return;
    }
    const parentId = parent ? Number(parent) : null;
    const done = {
      onSuccess: () => {
        raiseSuccess(folder ? t('folderSettings.saved') : t('folders.created'));
        navigate(foldersSettingsPath);
      },
    };
    if (!folder) {
      create.mutate({ name: name.trim(), parent_id: parentId }, done);
      return;
    }
    const change = {
      ...(name.trim() !== folderDisplayName(folder.name) ? { name: name.trim() } : {}),
      ...(parentId !== currentParent ? { parent_id: parentId } : {}),
    };
    if (Object.keys(change).length === 0) navigate(foldersSettingsPath);
    else update.mutate({ id: folder.id, folder: change }, done);
  }

  const title = folder
    ? t('folderSettings.editTitle', { name: folderDisplayName(folder.name) })
    : t('folders.createTitle');
  return (
    <SettingsPage title={title} back={{ to: foldersSettingsPath, label: t('folderSettings.backToList') }}>
      <form className={page.form} onSubmit={submit} noValidate aria-busy={busy}>
        <FolderFields
          {...fields}
          parents={parentChoices(folders, folder).map((candidate) => ({
            value: candidate.id,
            label: pathLabel(candidate, t),
          }))}
        />
        <FormActions>
          <Link to={foldersSettingsPath} className={buttonClass()}>
            {t('common.cancel')}
          </Link>
          <Button type="submit" variant="primary" disabled={busy}>
            {folder ? t('common.save') : t('common.create')}
          </Button>
        </FormActions>
      </form>
    </SettingsPage>
  );
}

/** A folder named with its parents (Work / Clients), so two folders of one name can be told apart. */
function pathLabel(folder: Folder, t: Translate): string {
  const segments = folder.name.split('.');
  if (segments[0]?.toUpperCase() === 'INBOX') segments.shift();
  return segments.length > 1 ? segments.join(' / ') : folderLabel(folder, t);
}
