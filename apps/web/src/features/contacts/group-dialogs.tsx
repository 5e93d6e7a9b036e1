import { useState } from 'react';
import type { Group } from '@mailroom/protocol';
import { useTranslation } from '../../i18n';
import { FormDialog } from '../../ui/dialog';
import { Field } from '../../ui/field';
import { raiseSuccess } from '../../ui/notices-store';
import { useCreateGroup, useGroupMembers, useRenameGroup } from './queries';
import { refusal, useErrorText } from '../../api/use-error-text';

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
  const [name, setName] = useState(initial);
  const [error, setError] = useState<unknown>(null);
  const text = useErrorText(error);
  function submit() {
    if (!name.trim()) {
      setError(refusal('name_not_indicated'));
      return;
    }
    onSubmit(name.trim()).then(() => onOpenChange(false), setError);
  }
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      busy={busy}
      onSubmit={submit}
      submitLabel={submitLabel}
      noValidate
    >
      <Field label={t('contacts.groupName')} error={text}>
        <input
          value={name}
          maxLength={200}
          autoFocus
          autoComplete="off"
          onChange={(event) => {
            setName(event.target.value);
            setError(null);
          }}
        />
      </Field>
    </FormDialog>
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
