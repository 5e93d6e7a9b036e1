// Shared with the server, which writes the interface text of the language the page will pick into index.html.
export { detectLanguage, isSupportedLanguage, type LanguageSources } from '@mailroom/protocol';
