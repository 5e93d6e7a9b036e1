import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { render } from '@testing-library/react';
import type { QueryClient } from '@tanstack/react-query';
import { Providers } from '../app/providers';
import { createQueryClient } from '../app/query-client';
import { AppRouter } from '../lib/router';
import { AppRoutes } from '../app/routes';
import { useSession } from '../app/startup';
import { useSelection } from '../features/mail/selection-store';
import { useNotices } from '../ui/notices-store';

/**
 * The whole app, routes and all, opened at `path` on jsdom's own history: what the browser does on a deep link.
 * Navigation, back and forward then go through window.history as in a browser.
 */
export function renderAt(path: string, queryClient: QueryClient = createQueryClient()) {
  window.history.replaceState(null, '', path);
  return render(
    <Providers queryClient={queryClient}>
      <AppRouter>
        <AppRoutes />
      </AppRouter>
    </Providers>,
  );
}

/** The address bar: pathname and query, encoded as the browser holds them. */
export function currentPath(): string {
  return window.location.pathname + window.location.search;
}

/**
 * For files that render the app: elements get a size (jsdom lays nothing out, and the virtualised list draws
 * only what fits), and each test starts with an empty session store, and ends with no fetch stub, no notices and
 * no selection left.
 */
export function setUpScreenTests(): void {
  beforeAll(() => {
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(800);
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(800);
  });
  afterAll(() => {
    vi.restoreAllMocks();
  });
  beforeEach(() => {
    useSession.setState({ status: 'empty', unauthorized: false, signOnRequired: false });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    useNotices.setState({ queue: [] });
    useSelection.getState().clear();
  });
}
