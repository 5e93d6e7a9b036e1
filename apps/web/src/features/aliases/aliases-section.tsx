import { AliasCreatePage } from './alias-create';
import { AliasListPage } from './alias-list';

/** The aliases section of settings (SPEC §2: aliases (with create)): the list, or a new alias. */
export default function AliasesSection({ action }: { action?: 'create' | 'edit'; id?: string }) {
  if (action === 'create') return <AliasCreatePage />;
  return <AliasListPage />;
}
