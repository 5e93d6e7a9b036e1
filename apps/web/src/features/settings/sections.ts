/** Settings sections of SPEC §2, in menu order; also the first path segment under /settings. */
export const settingsSections = [
  'main',
  'profiles',
  'ba',
  'collectors',
  'd_emails',
  'domains',
  'access',
  'folders',
  'labels',
  'filters',
  'spam',
  'import',
  'export',
  'aliases',
  'support',
] as const;
export type SettingsSectionId = (typeof settingsSections)[number];

export type SettingsAction = 'create' | 'edit' | 'confirm' | 'dkim' | 'remove' | 'emails';
