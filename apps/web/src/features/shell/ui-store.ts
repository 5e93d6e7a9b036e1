import { create } from 'zustand';

interface UiState {
  /** The slide-in sidebar on mobile (< 768 px); on desktop the sidebar is always shown. */
  sidebarOpen: boolean;
  setSidebarOpen(open: boolean): void;
  /** The first screen is drawn and the browser idle: what can wait for it (the delegated addresses) loads now. */
  settled: boolean;
}

export const useUi = create<UiState>((set) => ({
  sidebarOpen: false,
  setSidebarOpen: (sidebarOpen) => set({ sidebarOpen }),
  settled: false,
}));
