import { useState } from 'react';
import { useSearchParams } from '../../lib/router';
import { useAccount, useUser } from '../account';
import { findInbox, useFolders } from '../folders';
import { lockedAliasId } from './locked-alias';
import { readMailLink, useMailLinkTarget } from './mail-links';
import { MailHome } from './mail-views';

/**
 * /mail with a link's query (SPEC §2): the query read once, then MailHome goes where it leads. Its own chunk, loaded
 * only for such a link (DESIGN §5).
 */
export default function LinkedMailIndex() {
  const search = useSearchParams();
  const [link] = useState(() => readMailLink(search));
  const folders = useFolders();
  const locked = lockedAliasId(useUser(), useAccount());
  const inbox = folders.data ? (findInbox(folders.data) ?? folders.data[0]) : undefined;
  return <MailHome target={useMailLinkTarget(link, locked ?? 'all', inbox?.id)} />;
}
