import { lazy, Suspense } from 'react';
import { useNotices } from './notices-store';

const NoticeDialogImpl = lazy(() => import('./notice-dialog-impl'));

/**
 * The error and success dialogs of SPEC §8: one at a time, each closes itself after 4 s. Errors are rare, so the
 * dialog code loads with the first one instead of with the shell (DESIGN §5).
 */
export function NoticeDialog() {
  const pending = useNotices((state) => state.queue.length > 0);
  if (!pending) return null;
  return (
    <Suspense fallback={null}>
      <NoticeDialogImpl />
    </Suspense>
  );
}
