import { useMemo } from 'react';
import { mailboxSource } from './decrypt-api';
import DecryptPanel from './decrypt-panel';

/** The reader's password prompt for an encrypted notice; loaded only when one is opened. */
export default function ReaderDecrypt({ folderId, uid }: { folderId: number; uid: number }) {
  const source = useMemo(() => mailboxSource(folderId, uid), [folderId, uid]);
  return <DecryptPanel source={source} />;
}
