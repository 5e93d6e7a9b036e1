import { create } from 'zustand';

interface SelectionState {
  /** The list the selection belongs to; a different list starts with nothing selected. */
  view: string;
  /** Selected messages by messageKey (folder:uid). */
  keys: ReadonlySet<string>;
  /** Select-all: the whole folder or label is selected, not only the rows on screen (SPEC §4). */
  bulk: boolean;
  /** The reader covers the list (double click on desktop; always on narrow screens). */
  fullscreen: boolean;
  /** SPEC §3 isChainOpened: the chains shown opened under their rows, by the row's key (the keyboard walks them). */
  openedChains: ReadonlySet<string>;
  setView(view: string): void;
  set(keys: ReadonlySet<string>, bulk?: boolean): void;
  toggle(key: string): void;
  clear(): void;
  setFullscreen(fullscreen: boolean): void;
  toggleChain(key: string): void;
}

export const useSelection = create<SelectionState>((set) => ({
  view: '',
  keys: new Set(),
  bulk: false,
  fullscreen: false,
  openedChains: new Set(),
  setView: (view) =>
    set((state) =>
      state.view === view
        ? state
        : { view, keys: new Set(), bulk: false, fullscreen: false, openedChains: new Set() },
    ),
  set: (keys, bulk = false) => set({ keys, bulk }),
  toggle: (key) =>
    set((state) => {
      const keys = new Set(state.keys);
      if (keys.has(key)) keys.delete(key);
      else keys.add(key);
      // Unticking one row of a select-all leaves a page selection, not "everything but one".
      return { keys, bulk: false };
    }),
  clear: () => set({ keys: new Set(), bulk: false }),
  setFullscreen: (fullscreen) => set({ fullscreen }),
  toggleChain: (key) =>
    set((state) => {
      const openedChains = new Set(state.openedChains);
      if (openedChains.has(key)) openedChains.delete(key);
      else openedChains.add(key);
      return { openedChains };
    }),
}));
