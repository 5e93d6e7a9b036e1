// The frame around the signed-in screens (sidebar, top panel, footer, user menu, quota bar) and around the public
// pages (PublicLayout). The sidebar takes the compose button and the folder drop from the app, which wires them.
export { Sidebar, type SidebarProps } from './sidebar';
export { TopPanel, type TopPanelProps } from './top-panel';
export { MainHeader } from './main-header';
export { ImpersonationBar } from './impersonation-slot';
export { PublicLayout } from './public-layout';
export { useUi } from './ui-store';
// The query key of the addresses delegated to this member, and switching into one (settings/d_emails uses both; the
// switch loads when chosen).
export { delegatedEmailsKey } from './impersonation';
export const loadMailboxSwitch = () => import('./mailbox-switch');
