import { useEffect, useState } from 'react';
import type { SieveProblem } from '@mailroom/protocol';
import { validateSieve } from './queries';

/** How long typing pauses before the script is checked. */
const CHECK_AFTER_MS = 400;

/**
 * The interpreter's problems in `text`, checked by the server as the user types (debounced; a newer text cancels the
 * older check). `null` until the first answer, and while the server cannot be asked.
 */
export function useSieveProblems(text: string, enabled = true): SieveProblem[] | null {
  const [problems, setProblems] = useState<{ text: string; problems: SieveProblem[] } | null>(null);
  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    const timer = window.setTimeout(() => {
      validateSieve(text, controller.signal).then(
        (answer) => setProblems({ text, problems: answer.errors }),
        () => {},
      );
    }, CHECK_AFTER_MS);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [text, enabled]);
  // Problems of an older text would point at lines that moved: shown only until the new answer.
  return problems?.problems ?? null;
}
