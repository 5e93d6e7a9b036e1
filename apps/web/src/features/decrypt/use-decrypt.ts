import { useCallback, useState } from 'react';
import { ApiError } from '../../api/client';
import { decryptEnvelope, deriveSecrets, type EncryptedPayload } from '../../lib/crypto';
import type { DecryptSource } from './decrypt-api';

export type DecryptState =
  | { status: 'idle' }
  | { status: 'working' }
  | { status: 'opened'; payload: EncryptedPayload }
  | { status: 'wrong' }
  | { status: 'locked' }
  | { status: 'failed'; error: unknown };

/**
 * The steps of opening: params, the two PBKDF2 derivations (here, never on the server), the
 * authentication value for the ciphertext, and AES-GCM in the browser.
 */
export function useDecrypt(source: DecryptSource) {
  const [state, setState] = useState<DecryptState>({ status: 'idle' });
  const submit = useCallback(
    async (password: string) => {
      setState({ status: 'working' });
      try {
        const params = await source.params();
        const { key, auth } = await deriveSecrets(password, params);
        const envelope = await source.open(auth);
        setState({ status: 'opened', payload: await decryptEnvelope(key, envelope) });
      } catch (error) {
        if (error instanceof ApiError && error.code === 'decrypt_failed') setState({ status: 'wrong' });
        else if (error instanceof ApiError && error.code === 'decrypt_locked') setState({ status: 'locked' });
        // DecryptError after the server accepted the password: damaged bytes, shown as a failure.
        else setState({ status: 'failed', error });
      }
    },
    [source],
  );
  return { state, submit };
}
