import { createPortal } from 'react-dom';
import type { QueryClient } from '@tanstack/react-query';
import { LazyPart, lazyChunk } from '../../ui/lazy-route';
import { loadComposeWindow, useCompose } from './compose-store';
import { ComposeSavedContext } from './saved-context';

const noRefresh = () => {};

const ComposeWindow = lazyChunk(loadComposeWindow);

/**
 * Where the compose window lives: rendered from the always-mounted sidebar but portalled to <body>, so the
 * sidebar's slide-in transform on mobile does not become its containing block. TipTap and the window load on
 * first use only (DESIGN §5).
 */
export function ComposeHost({ onSaved }: { onSaved?(client: QueryClient): void }) {
  const open = useCompose((state) => state.open !== null);
  if (!open) return null;
  return createPortal(
    // A compose chunk that fails to load (SPEC §8 'Loading chunk failed') is an error box, not a broken shell.
    <LazyPart variant="notice" onFailed={() => useCompose.getState().closeCompose()}>
      <ComposeSavedContext value={onSaved ?? noRefresh}>
        <ComposeWindow />
      </ComposeSavedContext>
    </LazyPart>,
    document.body,
  );
}
