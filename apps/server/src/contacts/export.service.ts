import type { Db } from '../core/db/index.js';
import { allContacts } from './contacts.repository.js';
import { listGroups } from './groups.repository.js';
import { requireGroup } from './groups.service.js';

/** A file name for Content-Disposition: the group's name (or "contacts"), ASCII-safe beside its UTF-8 form. */
function fileNameFor(name: string): { ascii: string; utf8: string } {
  // eslint-disable-next-line no-control-regex
  const base = name.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ').trim() || 'contacts';
  const ascii = base.replace(/[^\x20-\x7e]/g, '_');
  return { ascii: `${ascii}.vcf`, utf8: `${base}.vcf` };
}

/** GET contacts/export: every contact, or one group's, as one vCard 4.0 file with its groups as CATEGORIES. */
export async function exportContacts(
  db: Db,
  accountId: number,
  groupId: number | undefined,
): Promise<{ text: string; fileName: { ascii: string; utf8: string } }> {
  const group = groupId !== undefined ? await requireGroup(db, accountId, groupId) : undefined;
  const [contacts, groups] = await Promise.all([
    allContacts(db, accountId, groupId),
    listGroups(db, accountId),
  ]);
  const groupName = new Map(groups.map((g) => [g.id, g.name]));
  // ical.js loads with the first export, not at start (issue 32).
  const { writeVcards } = await import('./vcard.js');
  const text = writeVcards(
    contacts.map((c) => ({
      ...c,
      groups: c.groups
        .map((id) => groupName.get(id))
        .filter((n): n is string => n !== undefined)
        .sort((x, y) => x.localeCompare(y, 'en')),
    })),
  );
  return { text, fileName: fileNameFor(group?.name ?? 'contacts') };
}
