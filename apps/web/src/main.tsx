import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import './ui/global.css';
import { initI18n, loadErrorTexts } from './i18n';
import { Providers } from './app/providers';
import { AppRoutes } from './app/routes';

void initI18n().then(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Providers>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </Providers>
    </StrictMode>,
  );
  // Fetch the error texts once the shell is up, so a later error dialog does not wait for them.
  window.setTimeout(() => void loadErrorTexts(), 3000);
});
