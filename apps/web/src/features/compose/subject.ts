import {
  COMPOSE_MODE,
  FORWARD_SUBJECT_PREFIX,
  REPLY_SUBJECT_PREFIX,
  type ComposeMode,
} from '@mailroom/protocol';

// Prefixes other clients write: 'RE:', 'Re[2]:', 'AW:' (German), 'SV:' (Nordic), 'Fwd:', 'FW:', 'Fw:'.
const REPLY_PREFIX = /^\s*(?:re|aw|sv)\s*(?:\[\d+\])?\s*:\s*/i;
const FORWARD_PREFIX = /^\s*(?:fwd?|fw)\s*(?:\[\d+\])?\s*:\s*/i;

function stripLeading(subject: string, prefix: RegExp): string {
  let rest = subject;
  for (let match = prefix.exec(rest); match; match = prefix.exec(rest)) rest = rest.slice(match[0].length);
  return rest;
}

/**
 * The subject of a reply or forward (SPEC §4): one 'Re:' or 'Fwd:' in front, never doubled. Replying to
 * 'RE: Re: Lunch' gives 'Re: Lunch'; replying to 'Fwd: Lunch' keeps the forward mark ('Re: Fwd: Lunch') because
 * it still says what the thread is; forwarding 'FW: Lunch' gives 'Fwd: Lunch'.
 */
export function prefixedSubject(mode: ComposeMode, subject: string): string {
  const trimmed = subject.trim();
  if (mode === COMPOSE_MODE.NEW) return trimmed;
  const [prefix, pattern] =
    mode === COMPOSE_MODE.FORWARD
      ? [FORWARD_SUBJECT_PREFIX, FORWARD_PREFIX]
      : [REPLY_SUBJECT_PREFIX, REPLY_PREFIX];
  const rest = stripLeading(trimmed, pattern);
  return rest ? `${prefix} ${rest}` : prefix;
}
