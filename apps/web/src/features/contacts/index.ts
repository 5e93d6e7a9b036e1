export const loadContactsPage = () => import('./contacts-page');
