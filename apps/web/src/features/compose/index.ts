// The compose window: opened through the store from anywhere, rendered by ComposeHost, loaded on first use.
export { loadComposeWindow, useCompose, type ComposeRequestOpen } from './compose-store';
export { ComposeHost } from './compose-host';
export { NewMessageButton } from './new-message-button';
/** The compose window's rich text editor (TipTap), on its own: a profile's signature is written with it. */
export const loadRichEditor = () =>
  import('./rich-editor').then((module) => ({ default: module.RichEditor }));
/** The reader's bar on a message waiting in Scheduled (Edit, Send now, Cancel), loaded with the feature texts. */
export const loadScheduledBanner = () => import('./scheduled-banner');
