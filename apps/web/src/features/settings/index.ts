// The settings pages (loaded with their route) and the section names the route table is built from.
export { settingsSections, type SettingsAction, type SettingsSectionId } from './sections';

export const loadSettingsLayout = () => import('./settings-layout');
