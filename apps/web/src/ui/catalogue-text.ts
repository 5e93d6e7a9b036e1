import { useEffect, useState } from 'react';
import { loadErrorTexts, translateErrorCode } from '../i18n';

/**
 * A refusal a form finds itself before sending (a catalogue code: passwords_do_not_match, specify_3_30…) in the words
 * the server would use (SPEC §8), the error catalogue loaded first (a chunk of its own); '' while it loads.
 */
export function useCatalogueText(code: string | null): string | null {
  const [, setLoaded] = useState(false);
  useEffect(() => {
    if (code) void loadErrorTexts().then(() => setLoaded(true));
  }, [code]);
  return code ? (translateErrorCode(code) ?? '') : null;
}
