import { useId, useState, type FormEvent } from 'react';
import { Dialog } from 'radix-ui';
import type { Group } from '@mailroom/protocol';
import { useTranslation } from '../../i18n';
import { Button } from '../../ui/button';
import { dialogKeepsNotices, raiseSuccess } from '../../ui/notices-store';
import dialog from '../../ui/dialog.module.css';
import { useCreateGroup, useGroupMembers, useRenameGroup } from './queries';
import { refusal, useErrorText } from '../../api/use-error-text';
import styles from './contacts.module.css';

/** A group's name in a small dialog: required (SPEC §5 "You didn't specify a name!"), refusals shown under it. */
function GroupNameDialog({
  open,
  onOpenChange,
  title,
  initial,
  submitLabel,
  busy,
  onSubmit,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: string;
  initial: string;
  submitLabel: string;
  busy: boolean;
  /** Resolves when saved; a rejection is shown under the name. */
  onSubmit(name: string): Promise<unknown>;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [name, setName] = useState(initial);
  const [error, setError] = useState<unknown>(null);
  const text = useErrorText(error);
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) {
      setError(refusal('name_not_indicated'));
      return;
    }
    onSubmit(name.trim()).then(() => onOpenChange(false), setError);
  }
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <Dialog.Portal>
        <Dialog.Overlay className={dialog.overlay} />
        <Dialog.Content className={dialog.content} aria-describedby={undefined} {...dialogKeepsNotices}>
          <form onSubmit={submit} aria-busy={busy} noValidate>
            <div className={dialog.header}>
              <Dialog.Title className={dialog.title}>{title}</Dialog.Title>
            </div>
            <div className={styles.field}>
              <label htmlFor={`${id}-name`}>{t('contacts.groupName')}</label>
              <input
                id={`${id}-name`}
                value={name}
                maxLength={200}
                autoFocus
                autoComplete="off"
                aria-invalid={text !== null}
                aria-describedby={text ? `${id}-error` : undefined}
                onChange={(event) => {
                  setName(event.target.value);
                  setError(null);
                }}
              />
              {text ? (
                <span id={`${id}-error`} className={styles.fieldError} role="alert">
                  {text}
                </span>
              ) : null}
            </div>
            <div className={dialog.actions}>
              <Dialog.Close asChild>
                <Button disabled={busy}>{t('common.cancel')}</Button>
              </Dialog.Close>
              <Button type="submit" variant="primary" disabled={busy}>
                {busy ? <span className={dialog.spinner} aria-hidden /> : null}
                {submitLabel}
              </Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** A new group, optionally made of some contacts at once (the list's "Add to group" → "New group…"). */
export function NewGroupDialog({
  open,
  onOpenChange,
  members = [],
  onCreated,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  members?: readonly number[];
  onCreated?(group: Group): void;
}) {
  const { t } = useTranslation();
  const create = useCreateGroup();
  const addMembers = useGroupMembers();
  // Mounted only while open, so each opening starts with an empty name.
  if (!open) return null;
  return (
    <GroupNameDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('contacts.newGroupTitle')}
      initial=""
      submitLabel={t('common.create')}
      busy={create.isPending || addMembers.isPending}
      onSubmit={async (name) => {
        let group = await create.mutateAsync(name);
        if (members.length > 0) group = await addMembers.mutateAsync({ id: group.id, add: [...members] });
        raiseSuccess(t('contacts.groupCreated', { group: group.name }));
        onCreated?.(group);
      }}
    />
  );
}

export function RenameGroupDialog({
  group,
  open,
  onOpenChange,
}: {
  group: { id: number; name: string };
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  const { t } = useTranslation();
  const rename = useRenameGroup();
  if (!open) return null;
  return (
    <GroupNameDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('contacts.renameGroupTitle')}
      initial={group.name}
      submitLabel={t('common.save')}
      busy={rename.isPending}
      onSubmit={(name) => rename.mutateAsync({ id: group.id, name })}
    />
  );
}
