import { useEffect, useState } from 'react';
import { ApiError } from '../../api/client';
import { errorDisplayMessage } from '../../api/error-message';
import { loadErrorTexts, translateErrorCode, useTranslation } from '../../i18n';

/** A refusal as the server would word it: the catalogue code's text (SPEC §8), for checks made before sending. */
export function refusal(code: string): ApiError {
  return new ApiError(400, code, code);
}

/**
 * What a form shows for an error beside its fields: the SPEC §8 display rule, with the error catalogue loaded
 * first (it is a chunk of its own), so "You didn't specify a name!" reads the same as the server's refusal.
 */
export function useErrorText(error: unknown): string | null {
  const { t } = useTranslation();
  const [, setLoaded] = useState(0);
  // Once per appearance of an error (not per error object: a check may make a new one at each render).
  const present = Boolean(error);
  useEffect(() => {
    if (present) void loadErrorTexts().then(() => setLoaded((count) => count + 1));
  }, [present]);
  if (!error) return null;
  return errorDisplayMessage(error, {
    catalogue: translateErrorCode,
    fallback: t('notice.somethingWrong'),
    unreachable: t('notice.unreachable'),
  });
}
