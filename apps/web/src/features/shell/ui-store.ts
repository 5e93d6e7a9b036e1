import { create } from 'zustand';

interface UiState {
  /** The slide-in sidebar on mobile (< 768 px); on desktop the sidebar is always shown. */
  sidebarOpen: boolean;
  setSidebarOpen(open: boolean): void;
}

export const useUi = create<UiState>((set) => ({
  sidebarOpen: false,
  setSidebarOpen: (sidebarOpen) => set({ sidebarOpen }),
}));
