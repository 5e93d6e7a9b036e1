import { useMemo, useState } from 'react';
import type { RecipientFieldName } from '@mailroom/protocol';
import type { RecipientTag } from './addresses';
import { convertBody, signatureBlock, swapSignature, type BodyFormat } from './compose-body';
import type { ComposeInitial } from './compose-init';
import type { RecipientFields } from './compose-request';
import { normalizeHtml } from './rich-editor';

/**
 * What the compose window's fields hold: the sender, recipients, subject and body in its format, and the swaps that
 * rewrite the body (the sender's signature, plain ↔ HTML); `revision` tells the editor the body was rewritten.
 */
export function useComposeFields(initial: ComposeInitial) {
  const [fromId, setFromId] = useState(initial.fromId);
  const [recipients, setRecipients] = useState<RecipientFields>(initial.recipients);
  const [subject, setSubject] = useState(initial.subject);
  const [format, setFormat] = useState<BodyFormat>(initial.format);
  const startBody = useMemo(
    () => (initial.format === 'html' ? normalizeHtml(initial.body) : initial.body),
    [initial],
  );
  const [body, setBody] = useState(startBody);
  const [revision, setRevision] = useState(0);
  const from = initial.fromChoices.find((option) => option.id === fromId) ?? initial.fromChoices[0];

  function changeFrom(next: string) {
    const target = initial.fromChoices.find((option) => option.id === next);
    if (initial.withSignature && from && target) {
      const block = (signature: string) => {
        const raw = signatureBlock(signature, format);
        return format === 'html' && raw ? normalizeHtml(raw) : raw;
      };
      const swapped = swapSignature(body, block(from.signature), block(target.signature));
      if (swapped !== null && swapped !== body) {
        setBody(swapped);
        setRevision((value) => value + 1);
      }
    }
    setFromId(next);
  }

  function changeFormat() {
    const next = format === 'html' ? 'plain' : 'html';
    setBody(convertBody(body, next));
    setFormat(next);
    setRevision((value) => value + 1);
  }

  function setField(field: RecipientFieldName, tags: RecipientTag[]) {
    setRecipients((current) => ({ ...current, [field]: tags }));
  }

  return {
    fromId,
    from,
    recipients,
    subject,
    format,
    body,
    /** The body as the window opened with it (what "left as it opened" compares with). */
    startBody,
    revision,
    setSubject: (next: string) => setSubject(next),
    setBody: (next: string) => setBody(next),
    setField,
    changeFrom,
    changeFormat,
  };
}
