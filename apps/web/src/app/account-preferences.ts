import { useEffect, useRef } from 'react';
import { useAccount } from '../features/account';
import { setLanguage } from '../i18n';
import { applyTheme } from '../ui/theme';

/**
 * The settings that dress the whole page rather than one screen: the theme, applied to the document whenever the
 * account's changes; and the language, switched when the account's changes while the page is open (saved here or
 * in another tab). At load the lang cookie decides (SPEC §9), which saving the setting also sets, and which signing in
 * sets to the saved language (auth/session-start.ts), so the language follows the member to another browser.
 */
export function useAccountPreferences(): void {
  const settings = useAccount()?.settings;
  const theme = settings?.theme;
  const language = settings?.language;
  useEffect(() => {
    if (theme) applyTheme(theme);
  }, [theme]);
  const seenLanguage = useRef(language);
  useEffect(() => {
    if (seenLanguage.current === language) return;
    seenLanguage.current = language;
    if (language) void setLanguage(language);
  }, [language]);
}
