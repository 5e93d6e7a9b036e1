import type { ReactNode } from 'react';
import { FolderView, LabelView, MailIndex, SearchView } from '../features/mail';
import { loadAboutPage } from '../features/about';
import { loadLoginPage } from '../features/auth';
import { loadContactsPage } from '../features/contacts';
import { loadDecryptPage } from '../features/decrypt';
import { loadSettingsPages } from '../features/settings';
import { Lazy, lazyChunk } from '../ui/lazy-route';
import { loadFeatureTexts } from '../i18n';
import { NoAliasGuard, Protected } from './protected-layout';
import { RootLayout } from './root-layout';
import { Navigate, Route, Switch } from '../lib/router';

// Everything but the mail shell is a separate chunk (DESIGN §5: the shell's initial JS ≤ 110 KB gzipped).
const AboutPage = lazyChunk(() =>
  Promise.all([loadAboutPage(), loadFeatureTexts()]).then(([chunk]) => chunk),
);
const LoginPage = lazyChunk(() =>
  Promise.all([loadLoginPage(), loadFeatureTexts()]).then(([chunk]) => chunk),
);
const DecryptPage = lazyChunk(() =>
  Promise.all([loadDecryptPage(), loadFeatureTexts()]).then(([chunk]) => chunk),
);
const ContactsPage = lazyChunk(loadContactsPage);
const SettingsPages = lazyChunk(() =>
  Promise.all([loadSettingsPages(), loadFeatureTexts()]).then(([chunk]) => chunk),
);

/**
 * The parts of a route kept by the next one: the Switch renders one Route at a time, always in the same place, so
 * React keeps every element of the same type in the same position. All protected routes render <Protected> first,
 * which keeps the shell (sidebar, websocket) mounted across them; the folder, label and search views stay mounted
 * while a message opens, closes or the page turns (msg_id is an optional parameter of their own route); settings
 * is one route here, whose layout stays while its sections change.
 */
function page(element: ReactNode) {
  return <Lazy>{element}</Lazy>;
}

/** Settings and contacts: kept from alias-only users (SPEC §2, §6). */
function members(element: ReactNode) {
  return (
    <Protected>
      <NoAliasGuard>{element}</NoAliasGuard>
    </Protected>
  );
}

/** The search route of SPEC §2, with the open message as its last, optional segment. */
const SEARCH_ROUTE =
  '/mail/search/:a_id/:f_id/:l_id/:page/:search_text/:all_folder/:subject/:text/:sender/:from/:to/:msg_id?';

/** The route table of SPEC §2. */
export function AppRoutes() {
  return (
    <RootLayout>
      <Switch>
        {/* fromRoot lets /mail honour a path saved in the redirect cookie right after sign-in. */}
        <Route path="/">
          <Navigate to="/mail" replace state={{ fromRoot: true }} />
        </Route>
        <Route path="/about">{page(<AboutPage />)}</Route>
        <Route path="/login">{page(<LoginPage />)}</Route>
        <Route path="/decrypt">{page(<DecryptPage />)}</Route>

        <Route path="/mail">
          <Protected>
            <MailIndex />
          </Protected>
        </Route>
        <Route path="/mail/folder/:a_id/:f_id/:page/:msg_id?">
          <Protected>
            <FolderView />
          </Protected>
        </Route>
        <Route path="/mail/label/:a_id/:l_id/:page/:msg_id?">
          <Protected>
            <LabelView />
          </Protected>
        </Route>
        <Route path={SEARCH_ROUTE}>
          <Protected>
            <SearchView />
          </Protected>
        </Route>

        <Route path="/contacts">{members(page(<ContactsPage />))}</Route>
        {/* One route for all of settings: its table is in the settings chunk, not in the shell's first paint. */}
        <Route path="/settings/*?">{members(page(<SettingsPages />))}</Route>

        <Route>
          <Navigate to="/mail" replace />
        </Route>
      </Switch>
    </RootLayout>
  );
}
