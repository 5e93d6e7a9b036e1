import { useEffect, useState } from 'react';
import { ArrowLeft, Download, Mail, Pencil, Trash2, UserMinus, Users, UsersRound } from 'lucide-react';
import type { GroupSummary } from '@mailroom/protocol';
import { ApiError } from '../../api/client';
import { raiseError } from '../../api/error-message';
import { useTranslation } from '../../i18n';
import { Link, useNavigate } from '../../lib/router';
import { Avatar } from '../../ui/avatar';
import { Button, buttonClass } from '../../ui/button';
import { IconButton } from '../../ui/icon-button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { raiseSuccess } from '../../ui/notices-store';
import { Preloader } from '../../ui/preloader';
import {
  contactsPath,
  fullName,
  writeToGroupPath,
  type ContactsQuery,
  type ContactsTabProps,
} from './contacts-model';
import { exportUrl, useDeleteGroup, useGroup, useGroupMembers, useGroups } from './queries';
import { NewGroupDialog, RenameGroupDialog } from './group-dialogs';
import styles from './contacts.module.css';

/** The groups tab: the list of groups with their sizes, or the group open (?group=) with its members. */
export function GroupsTab({ query, creating, onCreatingChange }: ContactsTabProps) {
  return (
    <>
      {query.group !== null ? <GroupView id={query.group} query={query} /> : <GroupList query={query} />}
      <NewGroupDialog open={creating} onOpenChange={onCreatingChange} />
    </>
  );
}

function GroupList({ query }: { query: ContactsQuery }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const groups = useGroups();
  const [renaming, setRenaming] = useState<GroupSummary | null>(null);
  const [deleting, setDeleting] = useState<GroupSummary | null>(null);
  const [creating, setCreating] = useState(false);

  return (
    <div className={styles.tabBody}>
      <div className={styles.scroll} aria-busy={groups.isFetching}>
        {groups.isError && !groups.data ? (
          <div className={styles.state} role="alert">
            <UsersRound aria-hidden />
            <h2>{t('contacts.groupsFailed')}</h2>
            <Button variant="primary" onClick={() => void groups.refetch()}>
              {t('app.retry')}
            </Button>
          </div>
        ) : !groups.data ? (
          <Preloader />
        ) : groups.data.length === 0 ? (
          <div className={styles.state}>
            <UsersRound aria-hidden />
            <h2>{t('contacts.noGroupsTitle')}</h2>
            <p>{t('contacts.noGroupsText')}</p>
            <Button variant="primary" onClick={() => setCreating(true)}>
              {t('contacts.createGroup')}
            </Button>
          </div>
        ) : (
          <ul className={styles.rows} aria-label={t('contacts.groupsLabel')}>
            {groups.data.map((group) => (
              <li key={group.id} className={styles.row}>
                <span className={styles.groupIcon} aria-hidden>
                  <Users />
                </span>
                <Link to={contactsPath({ ...query, group: group.id })} className={styles.open}>
                  <span className={styles.name}>{group.name}</span>
                  <span className={styles.email}>{t('contacts.members', { count: group.count })}</span>
                </Link>
                <span className={styles.rowActions}>
                  <IconButton
                    label={t('contacts.writeToGroupName', { group: group.name })}
                    tooltip={t('contacts.writeToGroup')}
                    disabled={group.count === 0}
                    onClick={() => navigate(writeToGroupPath(group.id))}
                  >
                    <Mail aria-hidden />
                  </IconButton>
                  <GroupActions
                    group={group}
                    onRename={() => setRenaming(group)}
                    onDelete={() => setDeleting(group)}
                  />
                </span>
              </li>
            ))}
          </ul>
        )}
      </div>
      {renaming ? (
        <RenameGroupDialog group={renaming} open onOpenChange={(open) => !open && setRenaming(null)} />
      ) : null}
      <NewGroupDialog open={creating} onOpenChange={setCreating} />
      <DeleteGroupDialog group={deleting} onDone={() => setDeleting(null)} />
    </div>
  );
}

/** A group's export (a vCard download), rename and delete, in its row and atop the group open. */
function GroupActions({
  group,
  onRename,
  onDelete,
}: {
  group: { id: number; name: string };
  onRename(): void;
  onDelete(): void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <a
        href={exportUrl(group.id)}
        download
        className={buttonClass('ghost')}
        aria-label={t('contacts.exportGroupName', { group: group.name })}
        title={t('contacts.exportGroup')}
      >
        <Download aria-hidden />
      </a>
      <IconButton
        label={t('contacts.renameGroupName', { group: group.name })}
        tooltip={t('contacts.renameGroup')}
        onClick={onRename}
      >
        <Pencil aria-hidden />
      </IconButton>
      <IconButton
        label={t('contacts.deleteGroupName', { group: group.name })}
        tooltip={t('contacts.deleteGroup')}
        onClick={onDelete}
      >
        <Trash2 aria-hidden />
      </IconButton>
    </>
  );
}

function DeleteGroupDialog({
  group,
  onDone,
  onDeleted,
}: {
  group: { id: number; name: string } | null;
  onDone(): void;
  onDeleted?(): void;
}) {
  const { t } = useTranslation();
  const remove = useDeleteGroup();
  return (
    <ConfirmDialog
      open={group !== null}
      onOpenChange={(open) => !open && onDone()}
      title={t('contacts.deleteGroupTitle')}
      text={t('contacts.deleteGroupText', { group: group?.name ?? '' })}
      confirmLabel={t('contacts.deleteGroup')}
      danger
      onError={raiseError}
      onConfirm={async () => {
        await remove.mutateAsync(group!.id, { onError: () => {} });
        raiseSuccess(t('contacts.groupDeleted', { group: group!.name }));
        onDone();
        onDeleted?.();
      }}
    />
  );
}

/** One group: its members (each can be taken out), write to all of them, export, rename, delete. */
function GroupView({ id, query }: { id: number; query: ContactsQuery }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const group = useGroup(id);
  const members = useGroupMembers();
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const back = contactsPath({ ...query, group: null });
  const gone = group.error instanceof ApiError && group.error.status === 404;
  // Deleted here or in another tab: back to the list of groups.
  useEffect(() => {
    if (gone) navigate(back, { replace: true });
  }, [gone, back, navigate]);

  if (!group.data) {
    if (group.isError && !gone)
      return (
        <div className={styles.state} role="alert">
          <UsersRound aria-hidden />
          <h2>{t('contacts.groupFailed')}</h2>
          <Button variant="primary" onClick={() => void group.refetch()}>
            {t('app.retry')}
          </Button>
        </div>
      );
    return <Preloader />;
  }
  const data = group.data;
  const withAddress = data.contacts.filter((contact) => contact.email);

  return (
    <div className={styles.tabBody}>
      <div className={styles.toolbar} role="toolbar" aria-label={t('contacts.groupActions')}>
        <Link to={back} className={buttonClass('ghost')} aria-label={t('contacts.backToGroups')}>
          <ArrowLeft aria-hidden />
        </Link>
        <h2 className={styles.groupTitle}>
          {data.name}
          <span className={styles.groupCount}>{t('contacts.members', { count: data.contacts.length })}</span>
        </h2>
        <span className={styles.grow} />
        <Button
          variant="primary"
          disabled={withAddress.length === 0}
          onClick={() => navigate(writeToGroupPath(data.id))}
        >
          <Mail aria-hidden />
          <span className={styles.label}>{t('contacts.writeToGroup')}</span>
        </Button>
        <GroupActions group={data} onRename={() => setRenaming(true)} onDelete={() => setDeleting(true)} />
      </div>
      <div className={styles.scroll} aria-busy={group.isFetching || members.isPending}>
        {data.contacts.length === 0 ? (
          <div className={styles.state}>
            <Users aria-hidden />
            <h2>{t('contacts.groupEmptyTitle')}</h2>
            <p>{t('contacts.groupEmptyText')}</p>
            <Link to={contactsPath({ tab: 'contacts' })} className={buttonClass('primary')}>
              {t('contacts.toContacts')}
            </Link>
          </div>
        ) : (
          <ul className={styles.rows} aria-label={t('contacts.membersLabel', { group: data.name })}>
            {data.contacts.map((contact) => {
              const name = fullName(contact) || contact.email || t('contacts.noName');
              return (
                <li key={contact.id} className={styles.row}>
                  <Avatar name={fullName(contact)} email={contact.email} size={32} />
                  <span className={styles.open}>
                    <span className={styles.name}>{name}</span>
                    <span className={styles.email}>{contact.email}</span>
                  </span>
                  <span className={styles.phone}>{contact.phone}</span>
                  <span className={styles.rowActions}>
                    <IconButton
                      label={t('contacts.removeFromGroup', { name, group: data.name })}
                      tooltip={t('contacts.removeFromGroupShort')}
                      disabled={members.isPending}
                      onClick={() => members.mutate({ id: data.id, remove: [contact.id] })}
                    >
                      <UserMinus aria-hidden />
                    </IconButton>
                  </span>
                </li>
              );
            })}
          </ul>
        )}
      </div>
      {renaming ? <RenameGroupDialog group={data} open onOpenChange={setRenaming} /> : null}
      <DeleteGroupDialog
        group={deleting ? data : null}
        onDone={() => setDeleting(false)}
        onDeleted={() => navigate(back, { replace: true })}
      />
    </div>
  );
}
