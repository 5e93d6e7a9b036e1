import { Lazy } from '../../ui/lazy-route';
import { Navigate, Route, Switch } from '../../lib/router';
import SettingsLayout, { SettingsSection } from './settings-layout';
import type { SettingsAction, SettingsSectionId } from './sections';

/**
 * The settings part of SPEC §2's route table. The shell's table has one route for all of /settings, which loads this
 * chunk: the paths below are not carried in the mail shell's first paint (DESIGN §5). The layout stays mounted while
 * its sections change; a section still loading shows inside it.
 */
function section(id: SettingsSectionId, action?: SettingsAction) {
  return <SettingsSection section={id} action={action} />;
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

export default function SettingsRoutes() {
  return (
    <SettingsLayout>
      <Lazy>
        <Switch>
          <Route path="/settings">
            <Navigate to="/settings/main" replace />
          </Route>
          <Route path="/settings/main">{section('main')}</Route>
          {editableSection('profiles')}
          <Route path="/settings/ba">{section('ba')}</Route>
          <Route path="/settings/collectors">{section('collectors')}</Route>
          <Route path="/settings/collectors/create">{section('collectors', 'create')}</Route>
          <Route path="/settings/collectors/confirm/:email">{section('collectors', 'confirm')}</Route>
          <Route path="/settings/d_emails">{section('d_emails')}</Route>
          <Route path="/settings/domains">
            <Navigate to="/settings/domains/list" replace />
          </Route>
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
          <Route path="/settings/import">{section('import')}</Route>
          <Route path="/settings/export">{section('export')}</Route>
          <Route path="/settings/aliases">{section('aliases')}</Route>
          <Route path="/settings/aliases/create">{section('aliases', 'create')}</Route>
          <Route path="/settings/support">{section('support')}</Route>
          <Route>
            <Navigate to="/mail" replace />
          </Route>
        </Switch>
      </Lazy>
    </SettingsLayout>
  );
}
