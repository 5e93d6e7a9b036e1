import type { Readable } from 'node:stream';
import type { SpamResult } from '../mailbox/index.js';

export interface RspamdSettings {
  url: string;
  controllerUrl: string;
  password: string | undefined;
  timeoutMs: number;
}

/** What Rspamd is told of a message besides its bytes (its HTTP protocol's headers). */
export interface ScanEnvelope {
  ip: string;
  helo: string;
  /** MAIL FROM, '' for the null sender. */
  from: string;
  rcpt: string[];
  /** Our queue id for its log. */
  queueId?: string;
}

interface CheckV2Answer {
  score?: number;
  required_score?: number;
  action?: string;
  symbols?: Record<string, { name?: string; score?: number }>;
}

/** Symbols kept with a message at most (the reader lists them): the heaviest. */
const MAX_SYMBOLS = 40;

/**
 * Scores a message with Rspamd (`POST /checkv2`, its HTTP protocol): the answer's score, action and heaviest symbols.
 * An Rspamd that is down, slow past `timeoutMs` or answering nonsense gives `unavailable`: the caller delivers the
 * message unchecked, never losing or holding it.
 */
export async function scoreMessage(
  settings: RspamdSettings,
  message: Buffer | (() => Readable),
  envelope: ScanEnvelope,
): Promise<SpamResult> {
  const headers: Record<string, string> = {
    IP: envelope.ip,
    Helo: headerSafe(envelope.helo),
    From: headerSafe(envelope.from),
    'Queue-Id': headerSafe(envelope.queueId ?? ''),
  };
  // Rspamd takes several Rcpt headers; fetch joins repeated names, so the first recipient is sent and the count.
  if (envelope.rcpt[0]) headers.Rcpt = headerSafe(envelope.rcpt[0]);
  try {
    const body = Buffer.isBuffer(message) ? message : (message() as unknown as ReadableStream);
    const response = await fetch(`${settings.url}/checkv2`, {
      method: 'POST',
      headers,
      body: body as BodyInit,
      signal: AbortSignal.timeout(settings.timeoutMs),
      ...(Buffer.isBuffer(message) ? {} : { duplex: 'half' }),
    } as RequestInit);
    if (!response.ok) {
      await response.body?.cancel();
      return { status: 'unavailable' };
    }
    const answer = (await response.json()) as CheckV2Answer;
    if (typeof answer.score !== 'number' || typeof answer.action !== 'string')
      return { status: 'unavailable' };
    const symbols = Object.entries(answer.symbols ?? {})
      .map(([name, s]) => ({ name: name.slice(0, 100), score: Number(s.score ?? 0) }))
      .filter((s) => Number.isFinite(s.score))
      .sort((a, b) => Math.abs(b.score) - Math.abs(a.score) || a.name.localeCompare(b.name))
      .slice(0, MAX_SYMBOLS);
    return {
      status: 'scored',
      score: round(answer.score),
      required: round(Number(answer.required_score ?? 0)),
      action: answer.action.slice(0, 40),
      symbols: symbols.map((s) => ({ ...s, score: round(s.score) })),
    };
  } catch {
    return { status: 'unavailable' };
  }
}

export type LearnOutcome = 'learned' | 'already' | 'skipped';

/**
 * Teaches Rspamd's Bayes a message as spam or ham (`POST /learnspam` or `/learnham` on the controller), for one
 * member's statistics (`Deliver-To`, with per-user Bayes) — 'already': it had learned it so; 'skipped': too little
 * text to learn from. Throws when Rspamd cannot be reached or fails (the job is tried again later).
 */
export async function learnMessage(
  settings: RspamdSettings,
  as: 'spam' | 'ham',
  message: Buffer,
  user: string,
): Promise<LearnOutcome> {
  const headers: Record<string, string> = { 'Deliver-To': headerSafe(user) };
  if (settings.password) headers.Password = settings.password;
  const response = await fetch(`${settings.controllerUrl}/learn${as}`, {
    method: 'POST',
    headers,
    body: message as unknown as BodyInit,
    signal: AbortSignal.timeout(Math.max(settings.timeoutMs, 10_000)),
  });
  const text = await response.text();
  if (response.ok) return 'learned';
  // 208: learned before as this class; Rspamd answers 400/404 with "too few tokens" and similar for what it skips.
  if (response.status === 208 || /already learned/i.test(text)) return 'already';
  if (response.status >= 400 && response.status < 500 && /token|skip|empty|too small|no content/i.test(text))
    return 'skipped';
  throw new Error(`Rspamd ${as} learning answered ${response.status}: ${text.slice(0, 200)}`);
}

const round = (n: number) => Math.round(n * 100) / 100;
// eslint-disable-next-line no-control-regex
const headerSafe = (value: string) => value.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 500);
