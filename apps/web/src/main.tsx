import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './ui/global.css';
import { initI18n, loadErrorTexts } from './i18n';
import { Providers } from './app/providers';
import { createQueryClient } from './app/query-client';
import { AppRoutes } from './app/routes';
import { AppRouter } from './lib/router';
import { warmUpMail } from './app/warm-up';
import { applyRememberedTheme } from './ui/theme';

applyRememberedTheme();

const queryClient = createQueryClient();
// The first mail screen's requests start now, alongside the language chunk (DESIGN §5: Inbox drawn ≤ 1 s).
warmUpMail(queryClient, window.location);

void initI18n().then(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Providers queryClient={queryClient}>
        <AppRouter>
          <AppRoutes />
        </AppRouter>
      </Providers>
    </StrictMode>,
  );
  // Fetch the error texts once the shell is up, so a later error dialog does not wait for them.
  window.setTimeout(() => void loadErrorTexts(), 3000);
});
