import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../i18n';
import clsx from 'clsx';
import {
  AlarmClockOff,
  Check,
  FolderInput,
  Mail,
  MailOpen,
  ShieldAlert,
  ShieldCheck,
  Star,
  StarOff,
  Tag,
  Trash2,
} from 'lucide-react';

import { Button } from '../../ui/button';
import { IconButton } from '../../ui/icon-button';
import { raiseError } from '../../api/error-message';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { Dropdown } from '../../ui/dropdown';
import menu from '../../ui/menu.module.css';
import { useUser } from '../account';
import { useMailScreen } from './mail-context';
import { messageKey } from './list-model';
import { folderLabel, isMoveTarget, useLabels } from '../folders';
import { useSelection } from './selection-store';
import { useMailActions } from './use-mail-actions';
import { SnoozeMenu } from './snooze-menu';
import { ownedByControl } from './use-mail-keyboard';
import styles from './mail-toolbar.module.css';

const ignore = () => {};

/**
 * The top panel's actions on the selected or open messages (SPEC §2): delete, move, mark, spam, and emptying
 * Trash or Junk. A chunk of its own, loaded when there is first something to act on (DESIGN §5).
 */
export default function SelectionActions({ title, canEmpty }: { title: string; canEmpty: boolean }) {
  const { t } = useTranslation();
  const screen = useMailScreen();
  const actions = useMailActions();
  const user = useUser();
  const isAliasUser = Boolean(user?.info.alias);
  const [confirm, setConfirm] = useState<'empty' | 'bulkDelete' | 'chainDelete' | null>(null);
  const selectedCount = useSelection((state) => state.keys.size);
  // With nothing ticked the actions apply to the open message; on narrow screens the reader's own bar has them.
  const openOnly = actions.canAct && selectedCount === 0 && !actions.bulk;
  const system = screen.folder?.system;
  // Alias-only users do not see labels (SPEC §6).
  const labels = useLabels(!isAliasUser);
  const rows = screen.list?.messages ?? [];
  const targetKeys = new Set(actions.targets.map(messageKey));
  const targetRows = rows.filter((row) => targetKeys.has(messageKey(row)));
  /** A label every targeted row already carries: choosing it again takes it off (not in bulk mode). */
  const onAll = (labelId: number) =>
    !actions.bulk && targetRows.length > 0 && targetRows.every((row) => row.labels.includes(labelId));

  function remove() {
    if (actions.bulk) setConfirm('bulkDelete');
    else if (actions.hasChains) setConfirm('chainDelete');
    else void actions.remove().catch(ignore);
  }
  useDeleteKey(actions.canAct ? remove : null);

  // Snooze takes the listed messages (not a select-all), and not what waits to be sent or drafts.
  const canSnooze = !actions.bulk && system !== 'scheduled' && system !== 'draft';

  const destinations = screen.folders.filter(
    (folder) => folder.id !== screen.folder?.id && isMoveTarget(folder),
  );

  return (
    <>
      <div className={clsx(styles.actions, openOnly && styles.openOnly)}>
        {actions.canAct ? (
          <>
            {openOnly ? null : (
              <span className={styles.count} aria-live="polite">
                {t('mail.selected', { count: actions.count })}
              </span>
            )}
            <IconButton label={t('mail.delete')} onClick={remove}>
              <Trash2 aria-hidden />
            </IconButton>
            {system === 'snoozed' ? (
              actions.bulk ? null : (
                <IconButton label={t('mail.unsnooze')} onClick={() => void actions.unsnooze().catch(ignore)}>
                  <AlarmClockOff aria-hidden />
                </IconButton>
              )
            ) : canSnooze ? (
              <SnoozeMenu onSnooze={actions.snooze} shortcut />
            ) : null}
            {/* Out of Snoozed a message goes by Unsnooze (or Delete), not by a move: its snooze would hang on. */}
            {isAliasUser || system === 'snoozed' ? null : (
              <Dropdown
                trigger={
                  <IconButton label={t('mail.moveTo')}>
                    <FolderInput aria-hidden />
                  </IconButton>
                }
                content={(Menu) => (
                  <>
                    <Menu.Label className={menu.label}>{t('mail.moveTo')}</Menu.Label>
                    {destinations.map((folder) => (
                      <Menu.Item
                        key={folder.id}
                        className={menu.item}
                        onSelect={() => void actions.move(folder.id).catch(ignore)}
                      >
                        {folderLabel(folder, t)}
                      </Menu.Item>
                    ))}
                  </>
                )}
              />
            )}
            {isAliasUser ? null : (
              <Dropdown
                trigger={
                  <IconButton label={t('mail.addLabel')}>
                    <Tag aria-hidden />
                  </IconButton>
                }
                content={(Menu) => (
                  <>
                    <Menu.Label className={menu.label}>{t('mail.addLabel')}</Menu.Label>
                    {(labels.data ?? []).length === 0 ? (
                      <Menu.Item className={menu.item} disabled>
                        {labels.isPending ? t('mail.labelsLoading') : t('labels.empty')}
                      </Menu.Item>
                    ) : null}
                    {(labels.data ?? []).map((label) => {
                      const on = onAll(label.id);
                      return (
                        <Menu.CheckboxItem
                          key={label.id}
                          className={menu.item}
                          checked={on}
                          onSelect={() => void actions.label(label.id, !on).catch(ignore)}
                        >
                          <span className={styles.labelDot} style={{ background: label.color }} aria-hidden />
                          {label.name}
                          {on ? <Check aria-hidden className={styles.labelCheck} /> : null}
                        </Menu.CheckboxItem>
                      );
                    })}
                  </>
                )}
              />
            )}
            <Dropdown
              trigger={
                <IconButton label={t('mail.markMenu')}>
                  <MailOpen aria-hidden />
                </IconButton>
              }
              content={(Menu) => (
                <>
                  <Menu.Item className={menu.item} onSelect={() => void actions.mark('seen').catch(ignore)}>
                    <MailOpen aria-hidden />
                    {t('mail.markRead')}
                  </Menu.Item>
                  <Menu.Item className={menu.item} onSelect={() => void actions.mark('unseen').catch(ignore)}>
                    <Mail aria-hidden />
                    {t('mail.markUnread')}
                  </Menu.Item>
                  <Menu.Item
                    className={menu.item}
                    onSelect={() => void actions.mark('flagged').catch(ignore)}
                  >
                    <Star aria-hidden />
                    {t('mail.flag')}
                  </Menu.Item>
                  <Menu.Item
                    className={menu.item}
                    onSelect={() => void actions.mark('unflagged').catch(ignore)}
                  >
                    <StarOff aria-hidden />
                    {t('mail.unflag')}
                  </Menu.Item>
                </>
              )}
            />
            {system === 'snoozed' ? null : system === 'junk' ? (
              <IconButton label={t('mail.notSpam')} onClick={() => void actions.spam().catch(ignore)}>
                <ShieldCheck aria-hidden />
              </IconButton>
            ) : (
              <IconButton label={t('mail.toSpam')} onClick={() => void actions.spam().catch(ignore)}>
                <ShieldAlert aria-hidden />
              </IconButton>
            )}
          </>
        ) : canEmpty ? (
          <Button
            variant="ghost"
            className={styles.emptyButton}
            // The text hides on phones; the name stays.
            aria-label={system === 'trash' ? t('mail.emptyTrash') : t('mail.emptyJunk')}
            onClick={() => setConfirm('empty')}
          >
            <Trash2 aria-hidden />
            <span>{system === 'trash' ? t('mail.emptyTrash') : t('mail.emptyJunk')}</span>
          </Button>
        ) : null}
      </div>
      <ConfirmDialog
        open={confirm !== null}
        onOpenChange={(open) => !open && setConfirm(null)}
        onError={raiseError}
        danger
        title={
          confirm === 'empty'
            ? t('mail.emptyConfirmTitle')
            : confirm === 'chainDelete'
              ? t('mail.chainDeleteTitle')
              : t('mail.bulkDeleteTitle')
        }
        text={
          confirm === 'empty'
            ? t('mail.emptyConfirmText', { folder: title })
            : confirm === 'chainDelete'
              ? t('mail.chainDeleteText')
              : t('mail.bulkDeleteText', { count: actions.count, folder: title })
        }
        confirmLabel={t('mail.delete')}
        onConfirm={() =>
          confirm === 'empty' ? actions.empty() : actions.remove({ chains: confirm === 'chainDelete' })
        }
      />
    </>
  );
}

/** Delete deletes what is selected or open (SPEC §2); `onDelete` null while there is nothing to delete. */
function useDeleteKey(onDelete: (() => void) | null): void {
  const latest = useRef(onDelete);
  latest.current = onDelete;
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== 'Delete' || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey)
        return;
      if (ownedByControl(event.target) || !latest.current) return;
      event.preventDefault();
      latest.current();
    }
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}
