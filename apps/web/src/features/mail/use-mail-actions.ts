import { formatFullDate, type Folder, type MailListItem, type MovedMessage } from '@mailroom/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { folderLabel } from '../folders';
import { useTranslation } from '../../i18n';
import { raiseSuccess } from '../../ui/notices-store';
import { useNavigate } from '../../lib/router';
import { useMailScreen } from './mail-context';
import { messageKey, type FlagChange } from './list-model';
import { bulkRequest } from './queries';
import {
  useBulkAction,
  useDeleteMessages,
  useEmptyFolder,
  useLabelMessages,
  useMarkMessages,
  useMoveBack,
  useMoveTo,
  useSnoozeMessages,
  useUnsnoozeMessages,
  undoSnooze,
} from './mutations';
import { isoWithOffset } from './snooze-time';
import { useSelection } from './selection-store';

type MessageRef = Pick<MailListItem, 'folder_id' | 'uid'>;

export interface MailActions {
  /** Rows the actions apply to: the selection, or else the open message. */
  targets: MessageRef[];
  /** Select-all is on: actions go to the whole folder or label through the bulk call. */
  bulk: boolean;
  count: number;
  canAct: boolean;
  /** Some targets are chains (message_thread on): deleting them asks first (SPEC §5). */
  hasChains: boolean;
  systemFolder(system: Folder['system']): Folder | undefined;
  /** Delete; with `chains`, every message of the targeted chains goes too. */
  remove(options?: { chains?: boolean }): Promise<void>;
  move(destinationId: number): Promise<void>;
  mark(flag: FlagChange): Promise<void>;
  /** Add a label to the targets (or the whole folder in bulk mode), or take it off. */
  label(labelId: number, add?: boolean): Promise<void>;
  /** To Junk, or from Junk back to the Inbox. */
  spam(): Promise<void>;
  empty(): Promise<void>;
  /** To Snoozed until the moment (not in bulk mode), with Undo in the success box (issue 31). */
  snooze(until: Date): Promise<void>;
  /** From Snoozed back to where the messages were snoozed from. */
  unsnooze(): Promise<void>;
}

export function useMailActions(): MailActions {
  const screen = useMailScreen();
  const navigate = useNavigate();
  const keys = useSelection((state) => state.keys);
  const bulk = useSelection((state) => state.bulk);
  const remover = useDeleteMessages();
  const moveTo = useMoveTo();
  const marker = useMarkMessages();
  const labeller = useLabelMessages();
  const bulker = useBulkAction();
  const emptier = useEmptyFolder();
  const moveBack = useMoveBack();
  const snoozer = useSnoozeMessages();
  const unsnoozer = useUnsnoozeMessages();
  const client = useQueryClient();
  const { t, i18n } = useTranslation();

  const rows = screen.list?.messages ?? [];
  let targets: MessageRef[] = rows.filter((item) => keys.has(messageKey(item)));
  if (targets.length === 0 && !bulk && screen.openKey) {
    const [folderId, uid] = screen.openKey.split(':').map(Number);
    targets = [{ folder_id: folderId!, uid: uid! }];
  }
  const chainRows = rows.filter(
    (item) =>
      (item.threads?.length ?? 0) > 0 && targets.some((target) => messageKey(target) === messageKey(item)),
  );
  const hasChains = !bulk && chainRows.length > 0;
  const count = bulk ? (screen.list?.all ?? targets.length) : targets.length;
  const systemFolder = (system: Folder['system']) =>
    screen.folders.find((folder) => folder.system === system);

  function done(removed: boolean) {
    const opened = screen.openKey;
    useSelection.getState().clear();
    // The open message has left this list: show the list instead of a reader for a message that is gone.
    if (removed && opened && (bulk || targets.some((target) => messageKey(target) === opened))) {
      navigate(screen.pathTo(screen.source.page));
    }
  }

  /** Says what happened in the success box, with Undo moving the messages back (SPEC §8 box, 4 s). */
  function offerUndo(text: string, moved: readonly MovedMessage[]) {
    if (moved.length === 0) return;
    raiseSuccess(text, () => moveBack(moved));
  }

  async function moveOut(destinationId: number): Promise<MovedMessage[]> {
    const moved = await moveTo(
      destinationId,
      bulk ? { bulk: bulkRequest(screen.source) } : { messages: targets },
    );
    done(true);
    return moved;
  }

  async function move(destinationId: number) {
    const destination = screen.folders.find((folder) => folder.id === destinationId);
    const moved = await moveOut(destinationId);
    const name = destination ? folderLabel(destination, t) : '';
    offerUndo(t('mail.movedTo', { folder: name }), moved);
  }

  return {
    targets,
    bulk,
    count,
    canAct: bulk || targets.length > 0,
    hasChains,
    systemFolder,
    move,
    async remove(options = {}) {
      const trash = systemFolder('trash');
      if (bulk) {
        // In Trash or Junk everything selected goes for good, which is what emptying the folder does.
        const system = screen.folder?.system;
        if (system === 'trash' || system === 'junk') await emptier.mutateAsync(screen.folder!.id);
        else if (trash) offerUndo(t('mail.movedToTrash'), await moveOut(trash.id));
        done(true);
        return;
      }
      if (targets.length === 0) return;
      const members = options.chains ? chainRows.flatMap((item) => item.threads ?? []) : [];
      // From Trash or Junk the messages go for good: nothing to undo, and the server lists them as deleted.
      const result = await remover.mutateAsync({ messages: [...targets, ...members] });
      done(true);
      offerUndo(t('mail.movedToTrash'), result.moved ?? []);
    },
    async mark(flag) {
      if (bulk) {
        await bulker.mutateAsync({
          request_type: 'mark',
          request_params: { flag },
          request: bulkRequest(screen.source),
        });
      } else if (targets.length > 0) {
        await marker.mutateAsync({ flag, messages: targets });
      }
      done(false);
    },
    async label(labelId, add = true) {
      if (bulk) {
        await bulker.mutateAsync({
          request_type: 'mark',
          request_params: { flag: add ? 'label' : 'unlabel', label_id: labelId },
          request: bulkRequest(screen.source),
        });
      } else if (targets.length > 0) {
        await labeller.mutateAsync({ labelId, add, messages: targets });
      }
      done(false);
    },
    async spam() {
      const inJunk = screen.folder?.system === 'junk';
      const destination = inJunk ? systemFolder('inbox') : systemFolder('junk');
      if (!destination) return;
      offerUndo(inJunk ? t('mail.movedNotSpam') : t('mail.markedSpam'), await moveOut(destination.id));
    },
    async snooze(until) {
      if (targets.length === 0) return;
      const result = await snoozer.mutateAsync({ messages: targets, until: isoWithOffset(until) });
      done(true);
      const moved = result.moved ?? [];
      if (moved.length === 0) return;
      raiseSuccess(t('mail.snoozedUntil', { time: formatFullDate(until, new Date(), i18n.language) }), () =>
        undoSnooze(client, moved),
      );
    },
    async unsnooze() {
      if (targets.length === 0) return;
      await unsnoozer.mutateAsync({ messages: targets });
      done(true);
      raiseSuccess(t('mail.unsnoozed'));
    },
    async empty() {
      if (screen.folder) await emptier.mutateAsync(screen.folder.id);
      done(true);
    },
  };
}
