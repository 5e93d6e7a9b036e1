export const loadAboutPage = () => import('./about-page');
