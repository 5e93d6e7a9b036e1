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
   * Work budget of one run: each command, each test and each compared value costs one step,
   * `:matches` / `:contains` cost about one step per character they look at, and `:regex` one step
   * per character times the size of its compiled pattern (the regex engine's real work: RE2 runs
   * every state of the pattern over every character). A run that spends it all stops with a runtime
   * error (the message is kept).
   */
  maxSteps: number;
  /** Longest `:regex` pattern a script may hold, in characters (a longer one is a compile error). */
  maxRegexSize: number;
  /**
   * How long one run may take, in milliseconds of the clock (null: no limit). Checked as the run
   * spends its steps; a host that runs scripts for others also stops a run that overshoots it
   * within one step (the server terminates the worker thread it runs in).
   */
  timeLimitMs: number | null;
  /** Longest value a variable holds (longer values are cut, RFC 5229 §3). */
  maxVariableSize: number;
}

export const defaultLimits: SieveLimits = {
  maxScriptSize: 1024 * 1024,
  maxActions: 32,
  maxRedirects: 4,
  maxNesting: 15,
  maxSteps: 50_000_000,
  maxRegexSize: 1024,
  timeLimitMs: null,
  maxVariableSize: 4096,
};
