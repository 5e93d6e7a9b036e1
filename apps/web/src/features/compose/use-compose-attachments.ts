import { useEffect, useRef, useState, type DragEvent } from 'react';
import type { Translate } from '../../i18n';
import { useNotices } from '../../ui/notices-store';
import { useAttachments } from './attachments';
import type { ComposeInitial } from './compose-init';
import { copyAttachments, storedAttachmentUrl } from './queries';
import { sendErrorText } from './send-errors';
import { encryptionOff, type EncryptionChoice } from './encrypt-switch';

/**
 * The compose window's attachments and encryption, which decides where a file goes (uploaded, or kept in the browser
 * to be encrypted there): files added or dropped, the copies a forward or reopened draft brings along, and the ids
 * the window opened with. The refs give the draft and send hooks the current values from inside their callbacks.
 */
export function useComposeAttachments(initial: ComposeInitial, t: Translate) {
  const attachments = useAttachments();
  const attachmentsRef = useRef(attachments.items);
  attachmentsRef.current = attachments.items;
  // What the window opened with: a forward's or a reopened draft's attachments arrive a moment later.
  const openingAttachments = useRef(new Set<number>());
  const [encryption, setEncryption] = useState<EncryptionChoice>(
    initial.restored?.encryption ?? encryptionOff,
  );
  const encryptionRef = useRef(encryption);
  encryptionRef.current = encryption;
  const [dragging, setDragging] = useState(false);
  const uploading = attachments.items.some((item) => item.status === 'uploading');

  // A window brought back by Undo send: the files an encrypted message kept in the browser come back as they were.
  useEffect(() => {
    const files = initial.restored?.files ?? [];
    if (files.length > 0) attachments.addFiles(files, { local: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per window
  }, []);

  // Forwarded and reopened drafts bring their attachments along without uploading them again.
  useEffect(() => {
    const from = initial.copyFrom;
    if (!from) return;
    copyAttachments(from).then(
      (copied) => {
        for (const attachment of copied) openingAttachments.current.add(attachment.id);
        // The copies come in the order of the ids asked for: each can be read back from the message, to be
        // encrypted in the browser if encryption is switched on.
        attachments.addUploaded(
          copied,
          from.ids.map((id) => storedAttachmentUrl(from, id)),
        );
      },
      (error: unknown) => useNotices.getState().push('error', sendErrorText(error, t)),
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per window
  }, []);

  function changeEncryption(next: EncryptionChoice) {
    // Files added while encrypting stayed in the browser; a plain message needs them uploaded.
    if (encryption.on && !next.on) attachments.uploadKept();
    setEncryption(next);
  }

  function addFiles(files: File[]) {
    attachments.addFiles(files, { local: encryption.on });
  }

  function onDrop(event: DragEvent) {
    if (!event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    setDragging(false);
    addFiles(Array.from(event.dataTransfer.files));
  }

  return {
    attachments,
    attachmentsRef,
    openingAttachments,
    uploading,
    encryption,
    encryptionRef,
    setEncryption: changeEncryption,
    dragging,
    setDragging,
    addFiles,
    onDrop,
  };
}

export type ComposeAttachments = ReturnType<typeof useComposeAttachments>;
