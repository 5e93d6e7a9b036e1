import { useEffect, useState } from 'react';
import { COPIED_MS } from '@mailroom/protocol';

/** Puts `text` on the clipboard; false when the browser refused. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No Clipboard API (plain http): the legacy command still works there.
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    const ok = document.execCommand?.('copy') ?? false;
    area.remove();
    return ok;
  }
}

/** `copy(text)` copies and sets `copied` for COPIED_MS, for the button to say 'Copied' for a moment (SPEC §2). */
export function useCopy(): { copied: boolean; copy(text: string): Promise<void> } {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), COPIED_MS);
    return () => window.clearTimeout(timer);
  }, [copied]);
  return { copied, copy: async (text) => setCopied(await copyText(text)) };
}
