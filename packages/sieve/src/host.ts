/** What the interpreter asks of whoever runs it: the message, the envelope, the mailboxes, the clock. */

/** One header field as it stands in the message: its name and raw value (folded or not, not decoded). */
export interface HeaderField {
  name: string;
  value: string;
}

/** A leaf MIME part (message/rfc822 parts are entered): its media type and decoded text. */
export interface BodyPart {
  /** Lower-case "type/subtype"; "text/plain" when the part has none. */
  contentType: string;
  /** The part's content transfer-decoded and converted to Unicode (a part that is not text: its bytes as UTF-8). */
  text: string;
}

export interface SieveHost {
  /** Header fields of the top-level message, in order. */
  headers(): readonly HeaderField[];
  /** The size of the whole message in octets. */
  size(): number;
  /** The body after the header, not decoded (body :raw). */
  rawBody(): string;
  /** The leaf parts of the body (body :content, :text). */
  bodyParts(): readonly BodyPart[];
  /** SMTP envelope: MAIL FROM ("" for the null sender <>) and the RCPT TO being delivered to. */
  envelope(): { from: string; to: string };
  /**
   * Whether the account has this mailbox. A host that cannot tell answers true (as Pigeonhole's
   * sieve-test does when it does not execute).
   */
  mailboxExists(name: string): boolean;
  /** Now, for currentdate. */
  now(): Date;
  /** The zone (minutes east of UTC) dates are shown in when a test names none; 0 if absent. */
  zoneOffsetMinutes?(): number;
  /** The spam scorer's score and its spam threshold (spamtest, RFC 5235); null or absent: not tested. */
  spamScore?(): { score: number; required: number } | null;
}
