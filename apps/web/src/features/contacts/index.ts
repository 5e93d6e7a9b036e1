// Contacts and groups (issue 15): the /contacts screen with its texts, the reader's "add sender to contacts"
// (each its own chunk, DESIGN §5), and the live handler that reads them again when another tab changes them.
import { withFeatureTexts } from '../../i18n';

export const loadContactsPage = withFeatureTexts(() => import('./contacts-page'));
/** The reader's sender as a contact: offered to add when it is not one, marked when it is. */
export const loadSenderContact = withFeatureTexts(() => import('./sender-contact'));
