import { FolderPlus, Users } from 'lucide-react';
import type { GroupSummary } from '@mailroom/protocol';
import { useTranslation } from '../../i18n';
import { Button } from '../../ui/button';
import { Dropdown } from '../../ui/dropdown';
import { raiseSuccess } from '../../ui/notices-store';
import menu from '../../ui/menu.module.css';
import { useGroupMembers, useGroups } from './queries';
import styles from './contacts.module.css';

/** "Add to group": the groups, each adding the ticked contacts, and a new group made of them. */
export function AddToGroupMenu({
  contactIds,
  onNewGroup,
}: {
  contactIds: readonly number[];
  onNewGroup(): void;
}) {
  const { t } = useTranslation();
  const groups = useGroups();
  const members = useGroupMembers();
  const add = (group: GroupSummary) =>
    members.mutate(
      { id: group.id, add: [...contactIds] },
      { onSuccess: () => raiseSuccess(t('contacts.addedToGroup', { group: group.name })) },
    );
  return (
    <Dropdown
      trigger={
        <Button variant="ghost">
          <FolderPlus aria-hidden />
          <span className={styles.label}>{t('contacts.addToGroup')}</span>
        </Button>
      }
      content={(Menu) => (
        <>
          <Menu.Label className={menu.label}>{t('contacts.addToGroup')}</Menu.Label>
          {(groups.data ?? []).map((group) => (
            <Menu.Item key={group.id} className={menu.item} onSelect={() => add(group)}>
              <Users aria-hidden />
              {group.name}
            </Menu.Item>
          ))}
          {groups.isPending ? (
            <Menu.Item className={menu.item} disabled>
              {t('contacts.groupsLoading')}
            </Menu.Item>
          ) : null}
          <Menu.Separator className={menu.separator} />
          <Menu.Item className={menu.item} onSelect={onNewGroup}>
            <FolderPlus aria-hidden />
            {t('contacts.newGroupWith')}
          </Menu.Item>
        </>
      )}
    />
  );
}
