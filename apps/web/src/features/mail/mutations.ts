import {
  MutationObserver,
  useMutation,
  useQueryClient,
  type MutationOptions,
  type QueryClient,
  type QueryKey,
} from '@tanstack/react-query';
import type {
  ActionResult,
  Mail,
  MailFlags,
  MailListResponse,
  MessageQuery,
  MovedMessage,
} from '@mailroom/protocol';
import { call, routes } from '../../api/client';
import { folderKeys } from '../folders';
import { messageKey, toFolderMessages, type FlagChange } from './list-model';
import { mailKeys, type MessageRef } from './queries';

// The list's optimistic changes: the reader, the toolbar's actions, a drop on a folder and the row's star make them,
// and they load with those (lazy chunks; a drop's on the drop, the star's on its first click), not with the mail
// shell (DESIGN §5).

/** Delete and move take the rows out of the list at once; the refetch afterwards brings the next rows up. */
function removing<V extends { messages: readonly MessageRef[] }>(
  client: QueryClient,
  request: (variables: V) => Promise<ActionResult>,
): MutationOptions<ActionResult, Error, V, { saved: Snapshot }> {
  return {
    mutationFn: request,
    onMutate: async (variables: V) => {
      await client.cancelQueries({ queryKey: mailKeys.lists });
      const saved = snapshot(client);
      const keys = new Set(variables.messages.map(messageKey));
      updateLists(client, (list) => withoutMessages(list, keys));
      return { saved };
    },
    onError: (_error, _variables, context) => restore(client, context?.saved),
    onSettled: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: mailKeys.lists }),
        client.invalidateQueries({ queryKey: folderKeys.folders }),
      ]);
    },
  };
}

/** A change the server works out (empty a folder, a select-all action): the lists and counters are read again. */
function invalidating<V, R>(
  client: QueryClient,
  request: (variables: V) => Promise<R>,
): MutationOptions<R, Error, V> {
  return {
    mutationFn: request,
    onSettled: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: mailKeys.lists }),
        client.invalidateQueries({ queryKey: folderKeys.folders }),
      ]);
    },
  };
}

const deleteOptions = (client: QueryClient) =>
  removing(client, ({ messages }: { messages: readonly MessageRef[] }) =>
    call(routes.deleteMessages, { body: { folder_messages: toFolderMessages(messages) } }),
  );

const moveOptions = (client: QueryClient) =>
  removing(
    client,
    ({ destinationId, messages }: { destinationId: number; messages: readonly MessageRef[] }) =>
      call(routes.moveMessages, {
        body: { destination_id: destinationId, folder_messages: toFolderMessages(messages) },
      }),
  );

const emptyOptions = (client: QueryClient) =>
  invalidating(client, (folderId: number) => call(routes.emptyFolder, { body: { folder_id: folderId } }));

export interface BulkVariables {
  request_type: 'move' | 'mark';
  request_params: { destination_id?: number; flag?: FlagChange | 'label' | 'unlabel'; label_id?: number };
  request: MessageQuery;
}

const bulkOptions = (client: QueryClient) =>
  invalidating(client, (variables: BulkVariables) => call(routes.bulkAction, { body: variables }));

export function useDeleteMessages() {
  return useMutation(deleteOptions(useQueryClient()));
}

export function useEmptyFolder() {
  return useMutation(emptyOptions(useQueryClient()));
}

/** Select-all acts on the whole folder or label, not just the page (SPEC §4): the server resolves the set. */
export function useBulkAction() {
  return useMutation(bulkOptions(useQueryClient()));
}

/** What a move takes: rows named by folder and uid, or with select-all on the request naming the whole list. */
export type MoveSubject = { bulk: MessageQuery } | { messages: readonly MessageRef[] };

/**
 * The one move of the mail screen, for the toolbar's 'Move to folder' and for a drop onto a folder of the sidebar:
 * select-all goes to the bulk call, which moves the whole folder, label or search result (SPEC §4). A mutation of
 * the query client as useMutation makes one (its failure goes to the error box), without a component.
 */
export async function moveTo(
  client: QueryClient,
  destinationId: number,
  subject: MoveSubject,
): Promise<MovedMessage[]> {
  let result: ActionResult | undefined;
  if ('bulk' in subject) {
    result = await new MutationObserver(client, bulkOptions(client)).mutate({
      request_type: 'move',
      request_params: { destination_id: destinationId },
      request: subject.bulk,
    });
  } else if (subject.messages.length > 0) {
    result = await new MutationObserver(client, moveOptions(client)).mutate({
      destinationId,
      messages: subject.messages,
    });
  }
  // A moved message is no longer where the reader asks for it: an open one is asked for again, answers 404 and
  // the reader goes back to the list (a drop on the sidebar does not know what the reader shows).
  void client.invalidateQueries({ queryKey: mailKeys.mails });
  return result?.moved ?? [];
}

/**
 * Undo of a move (or of a delete, which moves to Trash): each message goes back to the folder it came from, as a
 * move of its own — the server reverses the action rather than having delayed it, so flags and labels come back
 * as they were.
 */
export async function moveBack(client: QueryClient, moved: readonly MovedMessage[]): Promise<void> {
  const origins = new Map<number, MessageRef[]>();
  for (const m of moved) {
    const refs = origins.get(m.folder_id) ?? [];
    refs.push({ folder_id: m.destination_id, uid: m.destination_uid });
    origins.set(m.folder_id, refs);
  }
  for (const [origin, messages] of origins) {
    // They all sit in one folder now, and one call takes up to 10,000 of a folder (a select-all move may be more).
    for (let i = 0; i < messages.length; i += 10_000)
      await moveTo(client, origin, { messages: messages.slice(i, i + 10_000) });
  }
}

export function useMoveTo(): (destinationId: number, subject: MoveSubject) => Promise<MovedMessage[]> {
  const client = useQueryClient();
  return (destinationId, subject) => moveTo(client, destinationId, subject);
}

export function useMoveBack(): (moved: readonly MovedMessage[]) => Promise<void> {
  const client = useQueryClient();
  return (moved) => moveBack(client, moved);
}

/**
 * Snooze (issue 31): the messages, with the rest of their conversations in the same folder, go to Snoozed until
 * `until` (ISO with offset). They leave the list at once; the refetch takes their conversations too.
 */
export function useSnoozeMessages() {
  return useMutation(
    removing(useQueryClient(), ({ messages, until }: { messages: readonly MessageRef[]; until: string }) =>
      call(routes.snoozeMessages, { body: { folder_messages: toFolderMessages(messages), until } }),
    ),
  );
}

/** Unsnooze: snoozed messages go back now to where they were snoozed from. */
export function unsnoozeOptions(client: QueryClient) {
  return removing(client, ({ messages }: { messages: readonly MessageRef[] }) =>
    call(routes.unsnoozeMessages, { body: { folder_messages: toFolderMessages(messages) } }),
  );
}

export function useUnsnoozeMessages() {
  return useMutation(unsnoozeOptions(useQueryClient()));
}

/** Undo of a snooze: the messages it moved to Snoozed go back at once. */
export async function undoSnooze(client: QueryClient, moved: readonly MovedMessage[]): Promise<void> {
  const messages = moved.map((m) => ({ folder_id: m.destination_id, uid: m.destination_uid }));
  for (let i = 0; i < messages.length; i += 100)
    await new MutationObserver(client, unsnoozeOptions(client)).mutate({
      messages: messages.slice(i, i + 100),
    });
  void client.invalidateQueries({ queryKey: mailKeys.mails });
}

export interface LabelVariables extends LabelChange {
  messages: readonly MessageRef[];
}

/** Labels go on and off at once in the list and the reader, and come back as they were if the server refuses. */
export function useLabelMessages() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ labelId, add, messages }: LabelVariables) =>
      call(routes.markMessages, {
        body: {
          flag: add ? 'label' : 'unlabel',
          label_id: labelId,
          folder_messages: toFolderMessages(messages),
        },
      }),
    onMutate: ({ labelId, add, messages }) =>
      changeAtOnce(client, messages, (list, keys) => withLabel(list, keys, { labelId, add })),
    onError: (_error, _variables, context) => restore(client, context?.saved),
    // A label list shows what carries the label: it changes with it.
    onSettled: (_result, _error, _variables, context) =>
      Promise.all([
        client.invalidateQueries({ queryKey: mailKeys.listsOfKind('label') }),
        askAgain(client, context),
      ]),
  });
}

export type Snapshot = [QueryKey, unknown][];

export function snapshot(client: QueryClient): Snapshot {
  return [
    ...client.getQueriesData({ queryKey: mailKeys.lists }),
    ...client.getQueriesData({ queryKey: mailKeys.mails }),
  ];
}

export function restore(client: QueryClient, saved: Snapshot | undefined): void {
  for (const [key, data] of saved ?? []) client.setQueryData(key, data);
}

export function updateLists(client: QueryClient, update: (list: MailListResponse) => MailListResponse): void {
  client.setQueriesData<MailListResponse>({ queryKey: mailKeys.lists }, (list) =>
    list ? update(list) : list,
  );
}

/** What an optimistic change keeps: the data it replaced, and the reads it cut short (see changeAtOnce). */
export interface ChangeContext {
  saved: Snapshot;
  interrupted: QueryKey[];
}

/**
 * A change to some messages' flags or labels, shown at once in every list and in an opened message; returns what
 * was there, for onError to put back if the server refuses. Reads under way are cancelled so that their answers do
 * not overwrite the change; they were asked for because something changed (a live event, an undo), so they are
 * asked again once the change has settled (`askAgain`) — else a list refetched for an undone move would keep its
 * old rows (issue 28: in the cluster the seen-mark of opening cut the undo's refetch short).
 */
export async function changeAtOnce(
  client: QueryClient,
  messages: readonly MessageRef[],
  change: (list: MailListResponse, keys: ReadonlySet<string>) => MailListResponse,
): Promise<ChangeContext> {
  const interrupted = client
    .getQueryCache()
    .findAll({ queryKey: mailKeys.all, fetchStatus: 'fetching' })
    .map((query) => query.queryKey);
  await client.cancelQueries({ queryKey: mailKeys.all });
  const saved = snapshot(client);
  const keys = new Set(messages.map(messageKey));
  updateLists(client, (list) => change(list, keys));
  client.setQueriesData<{ message: Mail }>({ queryKey: mailKeys.mails }, (data) => {
    if (!data || !keys.has(messageKey(data.message))) return data;
    const [changed] = change({ messages: [data.message], total: 1, all: 1 }, keys).messages;
    return { message: { ...data.message, flags: changed!.flags, labels: changed!.labels } };
  });
  return { saved, interrupted };
}

/** Asks again for what changeAtOnce cut short. */
export function askAgain(client: QueryClient, context: ChangeContext | undefined): Promise<unknown> {
  return Promise.all(
    (context?.interrupted ?? []).map((queryKey) => client.invalidateQueries({ queryKey, exact: true })),
  );
}

export interface MarkVariables {
  flag: FlagChange;
  messages: readonly MessageRef[];
}

/** Flags change at once on screen (SPEC §4) and go back if the server refuses. */
function markOptions(
  client: QueryClient,
): MutationOptions<ActionResult, Error, MarkVariables, ChangeContext> {
  return {
    mutationFn: ({ flag, messages }) =>
      call(routes.markMessages, { body: { flag, folder_messages: toFolderMessages(messages) } }),
    onMutate: ({ flag, messages }) =>
      changeAtOnce(client, messages, (list, keys) => withFlag(list, keys, flag)),
    onError: (_error, _variables, context) => restore(client, context?.saved),
    // Unread counters in the sidebar follow the server's count, not a guess.
    onSettled: (_result, _error, _variables, context) =>
      Promise.all([client.invalidateQueries({ queryKey: folderKeys.folders }), askAgain(client, context)]),
  };
}

export function useMarkMessages() {
  return useMutation(markOptions(useQueryClient()));
}

/**
 * The list row's star, which loads this module on its first click (DESIGN §5: usually prefetched by then). A
 * failure is shown in the error box by the mutation cache, and the star goes back.
 */
export function markMessages(client: QueryClient, variables: MarkVariables): Promise<void> {
  return new MutationObserver(client, markOptions(client)).mutate(variables).then(
    () => {},
    () => {},
  );
}

export function applyFlag(flags: MailFlags, flag: FlagChange): MailFlags {
  switch (flag) {
    case 'seen':
      return { ...flags, seen: true };
    case 'unseen':
      return { ...flags, seen: false };
    case 'flagged':
      return { ...flags, flagged: true };
    case 'unflagged':
      return { ...flags, flagged: false };
  }
}

/** A list page with a flag change applied to the named messages (optimistic update; chain members too). */
export function withFlag(
  list: MailListResponse,
  keys: ReadonlySet<string>,
  flag: FlagChange,
): MailListResponse {
  let changed = false;
  const messages = list.messages.map((item) => {
    const memberHit = item.threads?.some((member) => keys.has(messageKey(member))) ?? false;
    const threads = memberHit
      ? item.threads!.map((member) =>
          keys.has(messageKey(member)) ? { ...member, flags: applyFlag(member.flags, flag) } : member,
        )
      : item.threads;
    if (!keys.has(messageKey(item)) && !memberHit) return item;
    changed = true;
    return {
      ...item,
      flags: keys.has(messageKey(item)) ? applyFlag(item.flags, flag) : item.flags,
      ...(threads ? { threads } : {}),
    };
  });
  return changed ? { ...list, messages } : list;
}

/** A list page without the named messages (optimistic delete or move). */
export function withoutMessages(list: MailListResponse, keys: ReadonlySet<string>): MailListResponse {
  const messages = list.messages.filter((item) => !keys.has(messageKey(item)));
  const removed = list.messages.length - messages.length;
  if (removed === 0) return list;
  return { messages, total: Math.max(0, list.total - removed), all: Math.max(0, list.all - removed) };
}

/** Adding or removing one label (POST messages/mark with flag label or unlabel). */
export interface LabelChange {
  labelId: number;
  add: boolean;
}

function changeLabels(labels: readonly number[], change: LabelChange): number[] {
  const without = labels.filter((id) => id !== change.labelId);
  return change.add ? [...without, change.labelId] : without;
}

/** A list page with a label added to or removed from the named messages (optimistic update; chain members too). */
export function withLabel(
  list: MailListResponse,
  keys: ReadonlySet<string>,
  change: LabelChange,
): MailListResponse {
  let changed = false;
  const messages = list.messages.map((item) => {
    const memberHit = item.threads?.some((member) => keys.has(messageKey(member))) ?? false;
    const rowHit = keys.has(messageKey(item));
    if (!rowHit && !memberHit) return item;
    changed = true;
    const threads = memberHit
      ? item.threads!.map((member) =>
          keys.has(messageKey(member)) ? { ...member, labels: changeLabels(member.labels, change) } : member,
        )
      : item.threads;
    return {
      ...item,
      labels: rowHit ? changeLabels(item.labels, change) : item.labels,
      ...(threads ? { threads } : {}),
    };
  });
  return changed ? { ...list, messages } : list;
}
