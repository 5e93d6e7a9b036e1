import { useParams } from '../../lib/router';
import { CollectorConfirmPage } from './collector-confirm';
import { CollectorCreatePage } from './collector-create';
import { CollectorListPage } from './collector-list';

export type CollectorsAction = 'create' | 'confirm';

/** The collectors section of settings (SPEC §2: collectors — create, confirm/{email}): the list, or one of its children. */
export default function CollectorsSection({ action }: { action?: CollectorsAction }) {
  const { email } = useParams();
  if (action === 'create') return <CollectorCreatePage />;
  if (action === 'confirm') return <CollectorConfirmPage key={email} email={email ?? ''} />;
  return <CollectorListPage />;
}
