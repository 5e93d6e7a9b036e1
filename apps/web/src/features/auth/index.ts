// Signing in: the login page, loaded with its route. (Who is signed in, and signing out, are the account's.)
export const loadLoginPage = () => import('./login-page');
