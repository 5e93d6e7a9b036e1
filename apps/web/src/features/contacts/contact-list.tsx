import { useEffect, useId, useState } from 'react';
import clsx from 'clsx';
import { ChevronLeft, ChevronRight, Mail, Search, SearchX, Trash2, UserRoundX, Users, X } from 'lucide-react';
import type { Contact } from '@mailroom/protocol';
import { useTranslation } from '../../i18n';
import { Link, useNavigate } from '../../lib/router';
import { Avatar } from '../../ui/avatar';
import { Button } from '../../ui/button';
import { IconButton } from '../../ui/icon-button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { raiseError } from '../../api/error-message';
import { raiseSuccess } from '../../ui/notices-store';
import { ContactEditor } from './contact-editor';
import {
  contactsPath,
  fullName,
  lastPage,
  pageRange,
  writeToPath,
  type ContactsTabProps,
} from './contacts-model';
import { useContactPage, useContactSearch, useDeleteContacts } from './queries';
import { NewGroupDialog } from './group-dialogs';
import { AddToGroupMenu } from './add-to-group-menu';
import styles from './contacts.module.css';

/** How long typing pauses before the search is asked (a request per pause, not per key). */
const SEARCH_DELAY_MS = 250;

function useDebounced(value: string, delay: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), delay);
    return () => window.clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

type Editing = { contact: Contact | null; key: number } | null;

/**
 * The contacts tab: a page of contacts (SPEC §9: 100), or what a search as you type finds (up to 1000); a ticked
 * selection for writing to, adding to a group or deleting; a row opens the contact in the side panel.
 */
export function ContactListTab({ query, creating, onCreatingChange }: ContactsTabProps) {
  const { t } = useTranslation();
  const id = useId();
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const search = useDebounced(text.trim(), SEARCH_DELAY_MS);
  const searching = text.trim() !== '';
  const paged = useContactPage(query.page, query.limit);
  const found = useContactSearch(search);
  const list = searching ? found : paged;
  const contacts = list.data?.contacts;
  const total = list.data?.total ?? 0;
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<readonly Contact[] | null>(null);
  const [newGroupFor, setNewGroupFor] = useState<readonly number[] | null>(null);
  const remove = useDeleteContacts();

  // A new page or a new search starts with nothing ticked.
  useEffect(() => setSelected(new Set()), [query.page, search]);
  useEffect(() => {
    if (creating) {
      setEditing({ contact: null, key: Date.now() });
      onCreatingChange(false);
    }
  }, [creating, onCreatingChange]);
  // A page past the end (the last contacts of the last page deleted): the last page that has any.
  useEffect(() => {
    if (
      !searching &&
      paged.data &&
      paged.data.contacts.length === 0 &&
      query.page > 1 &&
      !paged.isPlaceholderData
    )
      navigate(contactsPath({ ...query, page: lastPage(paged.data.total, query.limit) }), { replace: true });
  }, [searching, paged.data, paged.isPlaceholderData, query, navigate]);

  const shown = contacts ?? [];
  const chosen = shown.filter((contact) => selected.has(contact.id));
  const allTicked = shown.length > 0 && chosen.length === shown.length;
  const toggle = (contactId: number) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(contactId)) next.delete(contactId);
      else next.add(contactId);
      return next;
    });
  const writeTo = (people: readonly Contact[]) => {
    const path = writeToPath(people);
    if (path) navigate(path);
  };
  const range = pageRange(query.page, query.limit, shown.length, total);

  return (
    <div className={styles.tabBody}>
      <div className={styles.toolbar} role="toolbar" aria-label={t('contacts.listActions')}>
        <input
          type="checkbox"
          className={styles.checkbox}
          aria-label={t('contacts.selectPage')}
          title={t('contacts.selectPage')}
          checked={allTicked}
          ref={(box) => {
            if (box) box.indeterminate = chosen.length > 0 && !allTicked;
          }}
          disabled={shown.length === 0}
          onChange={() => setSelected(allTicked ? new Set() : new Set(shown.map((contact) => contact.id)))}
        />
        {chosen.length > 0 ? (
          <div className={styles.bulk}>
            <span className={styles.count} aria-live="polite">
              {t('contacts.selected', { count: chosen.length })}
            </span>
            <Button
              variant="ghost"
              disabled={!chosen.some((contact) => contact.email)}
              onClick={() => writeTo(chosen)}
            >
              <Mail aria-hidden />
              <span className={styles.label}>{t('contacts.writeTo')}</span>
            </Button>
            <AddToGroupMenu
              contactIds={chosen.map((contact) => contact.id)}
              onNewGroup={() => setNewGroupFor(chosen.map((contact) => contact.id))}
            />
            <Button variant="ghost" onClick={() => setDeleting(chosen)}>
              <Trash2 aria-hidden />
              <span className={styles.label}>{t('contacts.delete')}</span>
            </Button>
          </div>
        ) : (
          <div className={styles.searchBox} role="search">
            <Search aria-hidden className={styles.searchIcon} />
            <input
              type="search"
              value={text}
              placeholder={t('contacts.searchPlaceholder')}
              aria-label={t('contacts.search')}
              aria-controls={`${id}-list`}
              autoComplete="off"
              onChange={(event) => setText(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Escape') setText('');
              }}
            />
            {text ? (
              <IconButton label={t('contacts.clearSearch')} onClick={() => setText('')}>
                <X aria-hidden />
              </IconButton>
            ) : null}
          </div>
        )}
        <span className={styles.grow} />
        {searching ? (
          <span className={styles.range} aria-live="polite">
            {list.data ? t('contacts.found', { count: total }) : null}
          </span>
        ) : (
          <nav className={styles.paging} aria-label={t('contacts.paging')}>
            <span className={styles.range}>
              {t('mail.range', { from: range.from, to: range.to, total: range.total })}
            </span>
            <Link
              to={contactsPath({ ...query, page: query.page - 1 })}
              className={clsx(styles.pageLink, query.page <= 1 && styles.disabled)}
              aria-label={t('contacts.previousPage')}
              aria-disabled={query.page <= 1}
              tabIndex={query.page <= 1 ? -1 : undefined}
              onClick={(event) => query.page <= 1 && event.preventDefault()}
            >
              <ChevronLeft aria-hidden />
            </Link>
            <Link
              to={contactsPath({ ...query, page: query.page + 1 })}
              className={clsx(styles.pageLink, range.to >= total && styles.disabled)}
              aria-label={t('contacts.nextPage')}
              aria-disabled={range.to >= total}
              tabIndex={range.to >= total ? -1 : undefined}
              onClick={(event) => range.to >= total && event.preventDefault()}
            >
              <ChevronRight aria-hidden />
            </Link>
          </nav>
        )}
      </div>

      <div className={styles.scroll} id={`${id}-list`} aria-busy={list.isFetching}>
        {list.isError && !list.data ? (
          <div className={styles.state} role="alert">
            <UserRoundX aria-hidden />
            <h2>{t('contacts.loadFailed')}</h2>
            <Button variant="primary" onClick={() => void list.refetch()}>
              {t('app.retry')}
            </Button>
          </div>
        ) : !contacts ? (
          <SkeletonRows />
        ) : contacts.length === 0 ? (
          searching ? (
            <div className={styles.state}>
              <SearchX aria-hidden />
              <h2>{t('contacts.noMatches')}</h2>
              <p>{t('contacts.noMatchesText', { text: text.trim() })}</p>
            </div>
          ) : (
            <div className={styles.state}>
              <Users aria-hidden />
              <h2>{t('contacts.emptyTitle')}</h2>
              <p>{t('contacts.emptyText')}</p>
              <Button variant="primary" onClick={() => setEditing({ contact: null, key: Date.now() })}>
                {t('contacts.create')}
              </Button>
            </div>
          )
        ) : (
          <ul className={styles.rows} aria-label={t('contacts.listLabel')}>
            {contacts.map((contact) => (
              <ContactRow
                key={contact.id}
                contact={contact}
                ticked={selected.has(contact.id)}
                onTick={() => toggle(contact.id)}
                onOpen={() => setEditing({ contact, key: contact.id })}
                onWrite={() => writeTo([contact])}
                onDelete={() => setDeleting([contact])}
              />
            ))}
          </ul>
        )}
      </div>

      {editing ? (
        <ContactEditor
          key={editing.key}
          contact={editing.contact}
          open
          onOpenChange={(open) => !open && setEditing(null)}
          onDelete={(contact) => setDeleting([contact])}
        />
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t('contacts.deleteTitle')}
        text={
          deleting?.length === 1
            ? t('contacts.deleteOne', { name: fullName(deleting[0]!) || deleting[0]!.email })
            : t('contacts.deleteMany', { count: deleting?.length ?? 0 })
        }
        confirmLabel={t('contacts.delete')}
        danger
        onError={raiseError}
        onConfirm={async () => {
          const ids = (deleting ?? []).map((contact) => contact.id);
          await remove.mutateAsync(ids, { onError: () => {} });
          raiseSuccess(t('contacts.deleted', { count: ids.length }));
          setSelected(new Set());
          setEditing(null);
          setDeleting(null);
        }}
      />
      {newGroupFor ? (
        <NewGroupDialog
          open
          members={newGroupFor}
          onOpenChange={(open) => !open && setNewGroupFor(null)}
          onCreated={() => setSelected(new Set())}
        />
      ) : null}
    </div>
  );
}

function ContactRow({
  contact,
  ticked,
  onTick,
  onOpen,
  onWrite,
  onDelete,
}: {
  contact: Contact;
  ticked: boolean;
  onTick(): void;
  onOpen(): void;
  onWrite(): void;
  onDelete(): void;
}) {
  const { t } = useTranslation();
  const name = fullName(contact) || contact.email || t('contacts.noName');
  return (
    <li className={clsx(styles.row, ticked && styles.ticked)}>
      <input
        type="checkbox"
        className={styles.checkbox}
        checked={ticked}
        aria-label={t('contacts.select', { name })}
        onChange={onTick}
      />
      <Avatar name={fullName(contact)} email={contact.email} size={32} />
      <button
        type="button"
        className={styles.open}
        onClick={onOpen}
        aria-label={t('contacts.open', { name })}
      >
        <span className={styles.name}>{name}</span>
        <span className={styles.email}>
          {contact.email}
          {contact.emails.length > 1 ? (
            <span className={styles.more}> +{contact.emails.length - 1}</span>
          ) : null}
        </span>
      </button>
      <span className={styles.phone}>{contact.phone}</span>
      <span className={styles.rowActions}>
        <IconButton
          label={t('contacts.writeToName', { name })}
          tooltip={t('contacts.writeTo')}
          disabled={!contact.email}
          onClick={onWrite}
        >
          <Mail aria-hidden />
        </IconButton>
        <IconButton
          label={t('contacts.deleteName', { name })}
          tooltip={t('contacts.delete')}
          onClick={onDelete}
        >
          <Trash2 aria-hidden />
        </IconButton>
      </span>
    </li>
  );
}

function SkeletonRows() {
  return (
    <ul className={styles.rows} aria-hidden>
      {Array.from({ length: 8 }, (_, index) => (
        <li key={index} className={clsx(styles.row, styles.skeleton)}>
          <span className={styles.skeletonBox} />
          <span className={styles.skeletonAvatar} />
          <span className={styles.skeletonLines}>
            <span />
            <span />
          </span>
        </li>
      ))}
    </ul>
  );
}
