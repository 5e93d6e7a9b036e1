import { ApiError } from './client';
import { useErrorText } from './use-error-text';

/** An error as a screen shows it beside what was done: its catalogue code (null: not the server's) and its words. */
export function useErrorAnswer(error: unknown): { code: string | null; text: string | null } {
  const text = useErrorText(error);
  return { code: error instanceof ApiError ? error.code : null, text };
}
