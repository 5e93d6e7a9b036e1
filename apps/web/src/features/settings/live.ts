import type { MailImport, MailImportsResponse } from '@mailroom/protocol';
import type { LiveHandler } from '../../api/live';

/**
 * `securityKeys.all` and `securityKeys.supportAll` of security-queries.ts, spelled here again on purpose (as
 * contacts/live.ts does): importing that module would put a chunk shared with the security screens into the mail
 * shell's list of chunks to preload (DESIGN §5); live.test.ts holds them equal.
 */
const securityKey = ['security'] as const;
const supportKey = ['support'] as const;
/** importKeys.list of import-queries.ts, likewise. */
const importsKey = ['mailImports'] as const;

/**
 * The security settings (password, names, grants) or the support requests changed in another tab or by the server:
 * the screens read them again. A grant changes what ba-list reports too, so 'security' refreshes everything under it.
 */
export const settingsLiveHandler: LiveHandler = {
  onEvent(event, client) {
    // A mail import's progress (one event a batch): the list shows it as it comes.
    if (event.event === 'mailImport') {
      client.setQueryData<MailImportsResponse>(importsKey, (list) => list && withImport(list, event.import));
      return;
    }
    if (event.event !== 'updateAccount') return;
    if (event.part === 'security') void client.invalidateQueries({ queryKey: securityKey });
    if (event.part === 'support') void client.invalidateQueries({ queryKey: supportKey });
  },
  refreshAfterGap: [securityKey, supportKey, importsKey],
};

/** An import as the list holds it: replaced in place, or put first when it is new (the list's owner uses it too). */
export function withImport(list: MailImportsResponse | undefined, item: MailImport): MailImportsResponse {
  const imports = list?.imports ?? [];
  return imports.some((one) => one.id === item.id)
    ? { imports: imports.map((one) => (one.id === item.id ? item : one)) }
    : { imports: [item, ...imports] };
}
