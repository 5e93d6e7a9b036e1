import { useCallback, useEffect, useState, type RefObject } from 'react';
import { AUTOSAVE_MS, recipientFieldNames } from '@mailroom/protocol';
import type { RecipientTag } from './addresses';
import type { BodyFormat } from './compose-body';
import type { ComposeInitial } from './compose-init';
import type { ComposeForm as FormValues } from './compose-request';
import { htmlToPlain } from './body-text';
import { useDraftSaver } from './use-draft-saver';
import type { ComposeAttachments } from './use-compose-attachments';

function bodyText(body: string, format: BodyFormat): string {
  return (format === 'html' ? htmlToPlain(body) : body).trim();
}

/** The same addresses in the same order (a tag typed and removed again leaves the field as it was). */
function sameTags(current: readonly RecipientTag[], opening: readonly RecipientTag[]): boolean {
  return (
    current.length === opening.length &&
    current.every(
      (tag, index) =>
        tag.email.toLowerCase() === opening[index]!.email.toLowerCase() &&
        tag.valid === opening[index]!.valid,
    )
  );
}

/**
 * The compose window's draft (SPEC §4): saved every 30 s unless collapsed, on close, and when the window is replaced
 * by another; never for an encrypted message; a window left as it opened is discarded, with any draft it autosaved.
 */
export function useComposeDraft({
  initial,
  startBody,
  formRef,
  files,
  collapsed,
  paused,
  onSaved,
}: {
  initial: ComposeInitial;
  startBody: string;
  formRef: RefObject<FormValues>;
  files: Pick<ComposeAttachments, 'attachmentsRef' | 'openingAttachments' | 'encryptionRef'>;
  collapsed: boolean;
  /** The window is finished or sending: no autosave now (the send deletes the draft, a save would leave a new one). */
  paused(): boolean;
  /** A draft was saved or dropped: lists and counters change. */
  onSaved(): void;
}) {
  const [draftState, setDraftState] = useState<'idle' | 'saved' | 'failed'>('idle');
  const getForm = useCallback(() => formRef.current, [formRef]);
  const drafts = useDraftSaver(getForm, () => {
    setDraftState('saved');
    onSaved();
  });

  // SPEC §4: closing with a recipient, subject, text or attachment saves a draft; an empty form is discarded. More
  // generally a window whose recipients, subject, text and attachments are as they opened is discarded: a reply
  // opened and closed again leaves no 'Re: …' draft behind.
  const asOpened = () => {
    const current = formRef.current;
    const items = files.attachmentsRef.current;
    const opening = files.openingAttachments.current;
    return (
      recipientFieldNames.every((field) => sameTags(current.recipients[field], initial.recipients[field])) &&
      current.subject.trim() === initial.subject.trim() &&
      bodyText(current.body, current.format) === bodyText(startBody, initial.format) &&
      items.length === opening.size &&
      items.every((item) => item.id !== undefined && opening.has(item.id))
    );
  };
  // A message to be encrypted is never saved as a draft: the server must not get its text. A reopened draft left
  // as it opened is saved only if this window saved something else in between.
  const needsSave = () => {
    if (files.encryptionRef.current.on || drafts.isUnchanged()) return false;
    return !asOpened() || (initial.draftUid !== null && drafts.hasSaved());
  };
  /** Closing or replaced: keep what was written as a draft, or drop the draft this window autosaved. */
  async function settle(): Promise<void> {
    if (needsSave()) await drafts.save();
    else if (initial.draftUid === null && drafts.hasSaved() && asOpened()) {
      await drafts.discard();
      onSaved();
    }
  }

  // Autosave every 30 s unless collapsed (SPEC §4).
  useEffect(() => {
    if (collapsed) return;
    const timer = window.setInterval(() => {
      if (!needsSave() || paused()) return;
      drafts.save().catch(() => setDraftState('failed'));
    }, AUTOSAVE_MS);
    return () => window.clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- needsSave reads refs
  }, [collapsed, drafts]);

  return { drafts, draftState, asOpened, settle };
}
