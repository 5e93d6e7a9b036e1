import i18n, { loadErrorTexts, translateErrorCode } from '../i18n';
import { useNotices } from '../ui/notices-store';
import { ApiError, NetworkError } from './client';

/** The translation lookups the display rule needs; injected so the rule stays pure and testable. */
export interface ErrorTranslator {
  /** The catalogue text for a code, or null when the errors catalogue has none. */
  catalogue(code: string, values?: Record<string, unknown>): string | null;
  /** An interface string (internal_error is looked up through `catalogue`). */
  fallback: string;
  /** What to say when the server could not be reached at all. */
  unreachable: string;
}

function isCanceled(error: unknown): boolean {
  if (error === 'canceled') return true;
  if (typeof error !== 'object' || error === null) return false;
  const { name, message } = error as { name?: unknown; message?: unknown };
  return name === 'AbortError' || name === 'CanceledError' || message === 'canceled';
}

/**
 * SPEC §8 display rule. Returns null when the error must not be shown at all (a canceled request).
 * 500 → internal_error; else the i8s translation; else error.message; else the plain message or 'smth went wrong'.
 */
export function errorDisplayMessage(error: unknown, translate: ErrorTranslator): string | null {
  if (isCanceled(error)) return null;
  if (error instanceof NetworkError) return translate.unreachable;
  if (error instanceof ApiError) {
    if (error.status === 500) return translate.catalogue('internal_error') ?? translate.fallback;
    if (error.code) {
      const text = translate.catalogue(error.code);
      if (text) return text;
    }
    if (error.status === 413) return 'Request Entity Too Large';
    if (error.message) return error.message;
    return translate.fallback;
  }
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return translate.fallback;
}

/** Show an error in the 'An error occured!' dialog, following the display rule of SPEC §8. */
export function raiseError(error: unknown): void {
  const show = () => {
    const text = errorDisplayMessage(error, {
      catalogue: translateErrorCode,
      fallback: i18n.t('notice.somethingWrong'),
      unreachable: i18n.t('notice.unreachable'),
    });
    if (text !== null) useNotices.getState().push('error', text);
  };
  // Without the catalogue the server's English message is still shown.
  loadErrorTexts().then(show, show);
}
