import { useCallback, useMemo, useRef } from 'react';
import { discardDraft, saveDraft } from './queries';
import { composeRequest, type ComposeForm } from './compose-request';

/**
 * Saves drafts one at a time: a save asked for while another runs waits for it, so the second carries the uid
 * the first got back and replaces that draft instead of leaving two (SPEC §4). A form unchanged since the last
 * save is not sent again.
 */
export function useDraftSaver(getForm: () => ComposeForm, onSaved: (uid: number) => void) {
  const running = useRef<Promise<number | null> | null>(null);
  const lastSaved = useRef<string | null>(null);
  const uid = useRef<number | null>(null);
  const onSavedRef = useRef(onSaved);
  onSavedRef.current = onSaved;

  const save = useCallback(async (): Promise<number | null> => {
    while (running.current) await running.current.catch(() => null);
    const form = getForm();
    const current = uid.current ?? form.draftUid;
    const request = composeRequest({ ...form, draftUid: current }, true);
    const key = JSON.stringify({ ...request, uid: null });
    if (key === lastSaved.current) return current;
    const attempt = saveDraft(request).then((response) => {
      lastSaved.current = key;
      uid.current = response.message.uid;
      onSavedRef.current(response.message.uid);
      return response.message.uid;
    });
    running.current = attempt;
    try {
      return await attempt;
    } finally {
      if (running.current === attempt) running.current = null;
    }
  }, [getForm]);

  /** The draft uid once any save in flight has finished: sending passes it so the server deletes the draft. */
  const settledUid = useCallback(async (): Promise<number | null> => {
    while (running.current) await running.current.catch(() => null);
    return uid.current ?? getForm().draftUid;
  }, [getForm]);

  const isUnchanged = useCallback(() => {
    const form = getForm();
    return JSON.stringify({ ...composeRequest(form, true), uid: null }) === lastSaved.current;
  }, [getForm]);

  /** Whether this window has saved a draft (autosave, or before it was replaced by another window). */
  const hasSaved = useCallback(() => uid.current !== null, []);

  /** Removes the draft this window saved, once any save in flight has finished (the window is as it opened). */
  const discard = useCallback(async (): Promise<void> => {
    while (running.current) await running.current.catch(() => null);
    const saved = uid.current;
    if (saved === null) return;
    await discardDraft(saved);
    uid.current = null;
    lastSaved.current = null;
  }, []);

  // One object for the window's life: the autosave interval depends on it and must not restart on every render.
  return useMemo(
    () => ({ save, settledUid, isUnchanged, hasSaved, discard }),
    [save, settledUid, isUnchanged, hasSaved, discard],
  );
}
