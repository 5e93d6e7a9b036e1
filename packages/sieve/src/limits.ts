/** Bounds that keep a hostile script from hurting the server; each can be changed per call. */
export interface SieveLimits {
  /** Largest script accepted, in UTF-8 bytes. */
  maxScriptSize: number;
  /** Most actions one run may produce (implicit keep not counted). */
  maxActions: number;
  /** Most redirects one run may produce. */
  maxRedirects: number;
  /** Deepest nesting of blocks and tests. */
  maxNesting: number;
  /**
   * Work budget of one run: each command, each test and each compared value costs one step, and
   * `:matches` / `:contains` / `:regex` cost about one step per character they look at. A run that
   * spends it all stops with a runtime error (the message is kept).
   */
  maxSteps: number;
  /** Longest value a variable holds (longer values are cut, RFC 5229 §3). */
  maxVariableSize: number;
}

export const defaultLimits: SieveLimits = {
  maxScriptSize: 1024 * 1024,
  maxActions: 32,
  maxRedirects: 4,
  maxNesting: 15,
  maxSteps: 50_000_000,
  maxVariableSize: 4096,
};
