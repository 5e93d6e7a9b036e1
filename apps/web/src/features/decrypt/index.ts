// Opening an encrypted message, loaded only when one is opened: the public /decrypt page and the reader's panel.
// (Encrypting one is compose's; the browser crypto both use is in lib/crypto.ts.)

export const loadDecryptPage = () => import('./decrypt-page');
export const loadReaderDecrypt = () => import('./reader-decrypt');
