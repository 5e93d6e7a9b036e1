import { describe, expect, it } from 'vitest';
import { COMPOSE_MODE } from '@mailroom/protocol';
import { prefixedSubject } from './subject';

describe('reply and forward subjects', () => {
  it.each([
    ['Lunch', 'Re: Lunch'],
    ['Re: Lunch', 'Re: Lunch'],
    ['RE: Re: Lunch', 'Re: Lunch'],
    ['re:Lunch', 'Re: Lunch'],
    ['Re[2]: Lunch', 'Re: Lunch'],
    ['AW: Lunch', 'Re: Lunch'],
    ['Fwd: Lunch', 'Re: Fwd: Lunch'],
    ['  Отчёт за ноябрь ', 'Re: Отчёт за ноябрь'],
    ['', 'Re:'],
  ])('a reply to %j is %j', (subject, expected) => {
    expect(prefixedSubject(COMPOSE_MODE.REPLY, subject)).toBe(expected);
    expect(prefixedSubject(COMPOSE_MODE.REPLY_ALL, subject)).toBe(expected);
  });

  it.each([
    ['Lunch', 'Fwd: Lunch'],
    ['Fwd: Lunch', 'Fwd: Lunch'],
    ['FW: Fwd: Lunch', 'Fwd: Lunch'],
    ['Fw: Lunch', 'Fwd: Lunch'],
    ['Re: Lunch', 'Fwd: Re: Lunch'],
    ['', 'Fwd:'],
  ])('a forward of %j is %j', (subject, expected) => {
    expect(prefixedSubject(COMPOSE_MODE.FORWARD, subject)).toBe(expected);
  });

  it('leaves a new message subject alone except for spaces around it', () => {
    expect(prefixedSubject(COMPOSE_MODE.NEW, ' Re: x ')).toBe('Re: x');
  });

  it('does not take a word that starts like a prefix for one', () => {
    expect(prefixedSubject(COMPOSE_MODE.REPLY, 'Report: done')).toBe('Re: Report: done');
    expect(prefixedSubject(COMPOSE_MODE.FORWARD, 'Fwdx: done')).toBe('Fwd: Fwdx: done');
  });
});
