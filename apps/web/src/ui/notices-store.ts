import { create } from 'zustand';
import { errorDisplayMessage } from '../api/error-message';
import i18n, { loadErrorTexts, translateErrorCode } from '../i18n';

export interface Notice {
  id: number;
  kind: 'error' | 'success';
  text: string;
}

interface NoticesState {
  queue: Notice[];
  refreshToast: boolean;
  push(kind: Notice['kind'], text: string): void;
  dismiss(id: number): void;
  setRefreshToast(visible: boolean): void;
}

let nextId = 1;

export const useNotices = create<NoticesState>((set) => ({
  queue: [],
  refreshToast: false,
  push: (kind, text) => set((state) => ({ queue: [...state.queue, { id: nextId++, kind, text }] })),
  dismiss: (id) => set((state) => ({ queue: state.queue.filter((notice) => notice.id !== id) })),
  setRefreshToast: (visible) => set({ refreshToast: visible }),
}));

/** Show an error in the 'An error occured!' dialog, following the display rule of SPEC §8. */
export function raiseError(error: unknown): void {
  const show = () => {
    const text = errorDisplayMessage(error, {
      catalogue: translateErrorCode,
      fallback: i18n.t('notice.somethingWrong'),
    });
    if (text !== null) useNotices.getState().push('error', text);
  };
  // Without the catalogue the server's English message is still shown.
  loadErrorTexts().then(show, show);
}

export function raiseSuccess(text: string): void {
  useNotices.getState().push('success', text);
}
