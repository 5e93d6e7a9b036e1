// The frame around the signed-in screens (sidebar, top panel, footer, user menu, quota bar) and around the public
// pages (PublicLayout). The sidebar takes the compose button and the folder drop from the app, which wires them.
export { Sidebar, type SidebarProps } from './sidebar';
export { TopPanel, type TopPanelProps } from './top-panel';
export { MainHeader } from './main-header';
export { ImpersonationBar } from './impersonation-slot';
export { PublicLayout } from './public-layout';
export { useUi } from './ui-store';
// Switching into an address delegated to this member, and the query key of that list (settings/d_emails uses both).
export { delegatedEmailsKey, openDelegatedAddress } from './impersonation';
