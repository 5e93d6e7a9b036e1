import type { ReactNode } from 'react';
import { FolderView, LabelView, MailIndex, SearchView } from '../features/mail';
import { loadAboutPage } from '../features/about';
import { loadLoginPage } from '../features/auth';
import { loadContactsPage } from '../features/contacts';
import { loadDecryptPage } from '../features/decrypt';
import { loadSettingsLayout, type SettingsAction, type SettingsSectionId } from '../features/settings';
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
const SettingsLayout = lazyChunk(() =>
  Promise.all([loadSettingsLayout(), loadFeatureTexts()]).then(([chunk]) => chunk),
);
const SettingsSectionPage = lazyChunk(() =>
  loadSettingsLayout().then((module) => ({ default: module.SettingsSection })),
);

/**
 * The parts of a route kept by the next one: the Switch renders one Route at a time, always in the same place, so
 * React keeps every element of the same type in the same position. All protected routes render <Protected> first,
 * which keeps the shell (sidebar, websocket) mounted across them; the folder, label and search views stay mounted
 * while a message opens, closes or the page turns (msg_id is an optional parameter of their own route); the
 * settings layout stays while its sections change.
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

/** A settings page in the settings layout: a section, or a redirect to one. */
function settings(element: ReactNode) {
  return members(page(<SettingsLayout>{element}</SettingsLayout>));
}

function section(id: SettingsSectionId, action?: SettingsAction) {
  return settings(page(<SettingsSectionPage section={id} action={action} />));
}

/** The create and edit/{id} children of profiles, folders, labels and filters (SPEC §2). */
function editableSection(id: SettingsSectionId) {
  return (
    <>
      <Route path={`/settings/${id}`}>{section(id)}</Route>
      <Route path={`/settings/${id}/create`}>{section(id, 'create')}</Route>
      <Route path={`/settings/${id}/edit/:id`}>{section(id, 'edit')}</Route>
    </>
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
        <Route path="/settings">{settings(<Navigate to="/settings/main" replace />)}</Route>
        <Route path="/settings/main">{section('main')}</Route>
        {editableSection('profiles')}
        <Route path="/settings/ba">{section('ba')}</Route>
        <Route path="/settings/collectors">{section('collectors')}</Route>
        <Route path="/settings/collectors/create">{section('collectors', 'create')}</Route>
        <Route path="/settings/collectors/confirm/:email">{section('collectors', 'confirm')}</Route>
        <Route path="/settings/d_emails">{section('d_emails')}</Route>
        <Route path="/settings/domains">{settings(<Navigate to="/settings/domains/list" replace />)}</Route>
        <Route path="/settings/domains/list">{section('domains')}</Route>
        <Route path="/settings/domains/list/create">{section('domains', 'create')}</Route>
        <Route path="/settings/domains/confirm/:id">{section('domains', 'confirm')}</Route>
        <Route path="/settings/domains/dkim/:id">{section('domains', 'dkim')}</Route>
        <Route path="/settings/domains/remove/:id">{section('domains', 'remove')}</Route>
        <Route path="/settings/domains/emails/:id">{section('domains', 'emails')}</Route>
        <Route path="/settings/access">{section('access')}</Route>
        {editableSection('folders')}
        {editableSection('labels')}
        {editableSection('filters')}
        <Route path="/settings/spam">{section('spam')}</Route>
        <Route path="/settings/export">{section('export')}</Route>
        <Route path="/settings/aliases">{section('aliases')}</Route>
        <Route path="/settings/aliases/create">{section('aliases', 'create')}</Route>
        <Route path="/settings/support">{section('support')}</Route>

        <Route>
          <Navigate to="/mail" replace />
        </Route>
      </Switch>
    </RootLayout>
  );
}
