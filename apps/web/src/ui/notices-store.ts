import { create } from 'zustand';

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

export function raiseSuccess(text: string): void {
  useNotices.getState().push('success', text);
}
