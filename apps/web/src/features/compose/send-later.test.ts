import { describe, expect, it } from 'vitest';
import { COMPOSE_MODE, uncheckedTrust, type Mail } from '@mailroom/protocol';
import { restoredCompose, type ComposeSnapshot } from './compose-init';
import { fromLocalInput, isoWithOffset, mondayMorning, toLocalInput, tomorrowMorning } from './send-later';

describe('send later times', () => {
  it('tomorrow and Monday morning are at 08:00 local time', () => {
    // A Wednesday evening.
    const now = new Date(2026, 10, 25, 21, 30);
    expect(tomorrowMorning(now)).toEqual(new Date(2026, 10, 26, 8, 0));
    expect(mondayMorning(now)).toEqual(new Date(2026, 10, 30, 8, 0));
    // On a Monday, the next one.
    expect(mondayMorning(new Date(2026, 10, 30, 7, 0))).toEqual(new Date(2026, 11, 7, 8, 0));
    // Month and year ends roll over.
    expect(tomorrowMorning(new Date(2026, 11, 31, 12, 0))).toEqual(new Date(2027, 0, 1, 8, 0));
  });

  it('writes ISO 8601 with the browser offset, the same instant', () => {
    const date = new Date(2026, 10, 30, 8, 0);
    const iso = isoWithOffset(date);
    expect(iso).toMatch(/^2026-11-30T08:00:00[+-]\d{2}:\d{2}$/);
    expect(Date.parse(iso)).toBe(date.getTime());
  });

  it('reads a datetime-local value as local time and back', () => {
    expect(fromLocalInput('2026-12-01T09:15')).toEqual(new Date(2026, 11, 1, 9, 15));
    expect(fromLocalInput('')).toBeNull();
    expect(fromLocalInput('tomorrow')).toBeNull();
    expect(toLocalInput(new Date(2026, 11, 1, 9, 15))).toBe('2026-12-01T09:15');
  });
});

describe('the window Undo send brings back', () => {
  const snapshot: ComposeSnapshot = {
    mode: COMPOSE_MODE.REPLY,
    fromChoices: [{ id: 'p1', email: 'ann@mailroom.test', name: 'Ann', signature: '' }],
    fromId: 'p1',
    recipients: {
      to: [{ email: 'bob@example.org', name: 'Bob', valid: true }],
      cc: [],
      bcc: [],
      'reply-to': [],
    },
    subject: 'Re: plans',
    body: '<p>typed <b>exactly</b></p>',
    format: 'html',
    withSignature: false,
    source: { folder_id: 1, uid: 9, mode: 1 },
    restored: { encryption: { on: false, password: '' }, files: [] },
  };

  it('keeps what was typed and the reply it answers, on the returned draft with its attachments', () => {
    const draft = {
      folder_id: 4,
      uid: 77,
      attachments: [{ id: 3, name: 'a.pdf', size: 10 }],
      trust: uncheckedTrust,
    } as unknown as Mail;
    expect(restoredCompose(snapshot, draft)).toEqual({
      ...snapshot,
      draftUid: 77,
      copyFrom: { folder_id: 4, uid: 77, ids: [3] },
    });
  });

  it('an encrypted message has no draft: the window alone, with its files kept in the browser', () => {
    expect(restoredCompose(snapshot, undefined)).toMatchObject({ draftUid: null, copyFrom: null });
  });
});
