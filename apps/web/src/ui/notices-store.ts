import { create } from 'zustand';

export interface Notice {
  id: number;
  kind: 'error' | 'success';
  text: string;
  /** Reverses what the success reports (a delete, a move): offered while the notice shows. */
  undo?: () => Promise<unknown>;
  /**
   * A success that is still under way until `until` (a send held for Undo): the box is titled `title` (not the
   * usual "Success!": nothing has happened yet) and shows `label` with the seconds left, offers its Undo only
   * meanwhile, then shows `doneText` alone and closes as usual.
   */
  countdown?: { until: number; title: string; label(seconds: number): string; doneText: string };
  /** Names what the notice reports (a scheduled send), so news from another tab can finish or close it. */
  tag?: string;
}

type NoticeExtras = Pick<Notice, 'undo' | 'countdown' | 'tag'>;

interface NoticesState {
  queue: Notice[];
  refreshToast: boolean;
  push(kind: Notice['kind'], text: string, undo?: Notice['undo'] | NoticeExtras): void;
  dismiss(id: number): void;
  /** The notice of `tag` closes (cancelled elsewhere). */
  dismissTag(tag: string): void;
  /** The countdown of `tag`'s notice ends now (done elsewhere): it shows its done text. */
  finishTag(tag: string): void;
  setRefreshToast(visible: boolean): void;
}

let nextId = 1;

export const useNotices = create<NoticesState>((set) => ({
  queue: [],
  refreshToast: false,
  push: (kind, text, undo) =>
    set((state) => {
      // Several requests failing for one reason (the server out of reach) make one box, not a row of them.
      if (kind === 'error' && state.queue.some((notice) => notice.kind === 'error' && notice.text === text))
        return state;
      return {
        // A success says what just happened: a newer one replaces an older one still waiting (its Undo with it),
        // while errors wait their turn so that none goes unread.
        queue: [
          ...(kind === 'success' ? state.queue.filter((notice) => notice.kind === 'error') : state.queue),
          { id: nextId++, kind, text, ...(typeof undo === 'function' ? { undo } : (undo ?? {})) },
        ],
      };
    }),
  dismiss: (id) => set((state) => ({ queue: state.queue.filter((notice) => notice.id !== id) })),
  dismissTag: (tag) => set((state) => ({ queue: state.queue.filter((notice) => notice.tag !== tag) })),
  finishTag: (tag) =>
    set((state) => ({
      queue: state.queue.map((notice) =>
        notice.tag === tag && notice.countdown && notice.countdown.until > Date.now()
          ? { ...notice, countdown: { ...notice.countdown, until: Date.now() } }
          : notice,
      ),
    })),
  setRefreshToast: (visible) => set({ refreshToast: visible }),
}));

/** Marks the notice box, which a modal dialog must not treat as outside itself (see dialogKeepsNotices). */
export const NOTICE_ATTRIBUTE = 'data-notice';

/**
 * For a modal dialog's content: a click or focus on the notice box (an error the dialog's own action raised, its
 * Undo) neither closes the dialog nor is refused by it.
 */
export const dialogKeepsNotices = {
  onPointerDownOutside: keepForNotice,
  onInteractOutside: keepForNotice,
  onFocusOutside: keepForNotice,
};

function keepForNotice(event: Event): void {
  if (event.target instanceof Element && event.target.closest(`[${NOTICE_ATTRIBUTE}]`))
    event.preventDefault();
}

export function raiseSuccess(text: string, undo?: Notice['undo']): void {
  useNotices.getState().push('success', text, undo);
}
