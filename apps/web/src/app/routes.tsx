import { Navigate, Route, Routes } from 'react-router';
import {
  FolderView,
  LabelView,
  MailIndex,
  ReaderEmpty,
  ReaderRoute,
  SearchView,
} from '../features/mail/mail-views';
import type { SettingsAction, SettingsSectionId } from '../features/settings/sections';
import { Lazy, lazyRoute } from './lazy-route';
import { loadFeatureTexts } from '../i18n';
import { NoAliasGuard, ProtectedLayout } from './protected-layout';
import { RootLayout } from './root-layout';

// Everything but the mail shell is a separate chunk (DESIGN §5: the shell's initial JS ≤ 120 KB gzipped).
const AboutPage = lazyRoute(() =>
  Promise.all([import('../features/about/about-page'), loadFeatureTexts()]).then(([chunk]) => chunk),
);
const LoginPage = lazyRoute(() =>
  Promise.all([import('../features/auth/login-page'), loadFeatureTexts()]).then(([chunk]) => chunk),
);
const DecryptPage = lazyRoute(() =>
  Promise.all([import('../features/decrypt/decrypt-page'), loadFeatureTexts()]).then(([chunk]) => chunk),
);
const ContactsPage = lazyRoute(() => import('../features/contacts/contacts-page'));
const SettingsLayout = lazyRoute(() =>
  Promise.all([import('../features/settings/settings-layout'), loadFeatureTexts()]).then(([chunk]) => chunk),
);
const SettingsSectionPage = lazyRoute(() =>
  import('../features/settings/settings-layout').then((module) => ({ default: module.SettingsSection })),
);

function section(id: SettingsSectionId, action?: SettingsAction) {
  return (
    <Lazy>
      <SettingsSectionPage section={id} action={action} />
    </Lazy>
  );
}

/** With create and edit/{id} children, as profiles, folders, labels and filters have (SPEC §2). */
function editableSection(id: SettingsSectionId) {
  return (
    <Route path={id}>
      <Route index element={section(id)} />
      <Route path="create" element={section(id, 'create')} />
      <Route path="edit/:id" element={section(id, 'edit')} />
    </Route>
  );
}

/** The route table of SPEC §2. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        {/* fromRoot lets /mail honour a path saved in the redirect cookie right after sign-in. */}
        <Route index element={<Navigate to="/mail" replace state={{ fromRoot: true }} />} />
        <Route
          path="about"
          element={
            <Lazy>
              <AboutPage />
            </Lazy>
          }
        />
        <Route
          path="login"
          element={
            <Lazy>
              <LoginPage />
            </Lazy>
          }
        />
        <Route
          path="decrypt"
          element={
            <Lazy>
              <DecryptPage />
            </Lazy>
          }
        />

        <Route element={<ProtectedLayout />}>
          <Route path="mail">
            <Route index element={<MailIndex />} />
            <Route path="folder/:a_id/:f_id/:page" element={<FolderView />}>
              <Route index element={<ReaderEmpty />} />
              <Route path=":msg_id" element={<ReaderRoute />} />
            </Route>
            <Route path="label/:a_id/:l_id/:page" element={<LabelView />}>
              <Route index element={<ReaderEmpty />} />
              <Route path=":msg_id" element={<ReaderRoute />} />
            </Route>
            <Route
              path="search/:a_id/:f_id/:l_id/:page/:search_text/:all_folder/:subject/:text/:sender/:from/:to"
              element={<SearchView />}
            >
              <Route index element={<ReaderEmpty />} />
              <Route path=":msg_id" element={<ReaderRoute />} />
            </Route>
          </Route>

          <Route element={<NoAliasGuard />}>
            <Route
              path="contacts"
              element={
                <Lazy>
                  <ContactsPage />
                </Lazy>
              }
            />
            <Route
              path="settings"
              element={
                <Lazy>
                  <SettingsLayout />
                </Lazy>
              }
            >
              <Route index element={<Navigate to="/settings/main" replace />} />
              <Route path="main" element={section('main')} />
              {editableSection('profiles')}
              <Route path="ba" element={section('ba')} />
              <Route path="collectors">
                <Route index element={section('collectors')} />
                <Route path="create" element={section('collectors', 'create')} />
                <Route path="confirm/:email" element={section('collectors', 'confirm')} />
              </Route>
              <Route path="d_emails" element={section('d_emails')} />
              <Route path="domains">
                <Route index element={<Navigate to="/settings/domains/list" replace />} />
                <Route path="list" element={section('domains')} />
                <Route path="list/create" element={section('domains', 'create')} />
                <Route path="confirm/:id" element={section('domains', 'confirm')} />
                <Route path="dkim/:id" element={section('domains', 'dkim')} />
                <Route path="remove/:id" element={section('domains', 'remove')} />
                <Route path="emails/:id" element={section('domains', 'emails')} />
              </Route>
              <Route path="access" element={section('access')} />
              {editableSection('folders')}
              {editableSection('labels')}
              {editableSection('filters')}
              <Route path="aliases">
                <Route index element={section('aliases')} />
                <Route path="create" element={section('aliases', 'create')} />
              </Route>
              <Route path="support" element={section('support')} />
            </Route>
          </Route>
        </Route>

        <Route path="*" element={<Navigate to="/mail" replace />} />
      </Route>
    </Routes>
  );
}
