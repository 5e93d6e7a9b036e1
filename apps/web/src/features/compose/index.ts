// The compose window: opened through the store from anywhere, rendered by ComposeHost, loaded on first use.
export { loadComposeWindow, useCompose, type ComposeRequestOpen } from './compose-store';
export { ComposeHost } from './compose-host';
export { NewMessageButton } from './new-message-button';
