// The settings pages, loaded with their route (their own route table is in the chunk), and the section names.
export { settingsSections, type SettingsAction, type SettingsSectionId } from './sections';

export const loadSettingsPages = () => import('./settings-routes');
