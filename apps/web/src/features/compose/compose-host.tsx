import { Component, Suspense, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import type { QueryClient } from '@tanstack/react-query';
import { lazyRoute } from '../../ui/lazy-route';
import { raiseError } from '../../api/error-message';
import { loadComposeWindow, useCompose } from './compose-store';
import { ComposeSavedContext } from './saved-context';

const noRefresh = () => {};

const ComposeWindow = lazyRoute(loadComposeWindow);

/** A compose chunk that fails to load (SPEC §8 'Loading chunk failed') is an error dialog, not a broken shell. */
class ComposeBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: unknown) {
    raiseError(error);
    useCompose.getState().closeCompose();
    this.setState({ failed: false });
  }
  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

/**
 * Where the compose window lives: rendered from the always-mounted sidebar but portalled to <body>, so the
 * sidebar's slide-in transform on mobile does not become its containing block. TipTap and the window load on
 * first use only (DESIGN §5).
 */
export function ComposeHost({ onSaved }: { onSaved?(client: QueryClient): void }) {
  const open = useCompose((state) => state.open !== null);
  if (!open) return null;
  return createPortal(
    <ComposeBoundary>
      <Suspense fallback={null}>
        <ComposeSavedContext value={onSaved ?? noRefresh}>
          <ComposeWindow />
        </ComposeSavedContext>
      </Suspense>
    </ComposeBoundary>,
    document.body,
  );
}
