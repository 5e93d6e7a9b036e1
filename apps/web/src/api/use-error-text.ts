import { useEffect, useState } from 'react';
import { ApiError } from './client';
import { errorDisplayMessage } from './error-message';
import { loadErrorTexts, translateErrorCode, useTranslation } from '../i18n';

/** A refusal as the server would word it: the catalogue code's text (SPEC §8), for checks made before sending. */
export function refusal(code: string): ApiError {
  return new ApiError(400, code, code);
}

/**
 * What a form shows for an error beside its fields: the SPEC §8 display rule, with the error catalogue loaded
 * first (it is a chunk of its own), so "You didn't specify a name!" reads the same as the server's refusal. While the
 * catalogue is still on its way, an error with a code shows nothing rather than the bare code.
 */
export function useErrorText(error: unknown): string | null {
  const { t } = useTranslation();
  const [loaded, setLoaded] = useState(0);
  // Once per appearance of an error (not per error object: a check may make a new one at each render).
  const present = Boolean(error);
  useEffect(() => {
    if (!present) return;
    const done = () => setLoaded((count) => count + 1);
    void loadErrorTexts().then(done, done);
  }, [present]);
  if (!error) return null;
  if (loaded === 0 && error instanceof ApiError && error.code && translateErrorCode(error.code) === null)
    return null;
  return errorDisplayMessage(error, {
    catalogue: translateErrorCode,
    fallback: t('notice.somethingWrong'),
    unreachable: t('notice.unreachable'),
  });
}
