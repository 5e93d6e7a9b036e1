import type { LiveHandler } from '../../api/live';

/**
 * `contactKeys.all` of queries.ts, spelled here again on purpose (as filters/live.ts does): importing queries.ts
 * would put a chunk shared with the contacts screen into the mail shell's list of chunks to preload (DESIGN §5);
 * live.test.ts holds the two equal.
 */
const contactsKey = ['contacts'] as const;

/**
 * Contacts or groups changed in another tab (or by an import there): the lists, the groups with their counts and
 * the reader's "is the sender a contact" answers are read again. A group's count moves with its contacts, and a
 * contact's groups with the groups, so either part refreshes both.
 */
export const contactsLiveHandler: LiveHandler = {
  onEvent(event, client) {
    if (event.event !== 'updateAccount') return;
    if (event.part === 'contacts' || event.part === 'groups')
      void client.invalidateQueries({ queryKey: contactsKey });
  },
  refreshAfterGap: [contactsKey],
};
