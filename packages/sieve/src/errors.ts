/** A place in the script: 1-based line and column. */
export interface Position {
  line: number;
  column: number;
}

/** A problem found while reading or checking a script, always with where it is. */
export class SieveSyntaxError extends Error {
  constructor(
    message: string,
    readonly position: Position,
    /** Set for a limit of ours (not the language's): a host may answer it with its own error. */
    readonly limit?: 'regex_too_long',
  ) {
    super(`line ${position.line}, column ${position.column}: ${message}`);
    this.name = 'SieveSyntaxError';
  }
  /** The message without the place. */
  get reason(): string {
    return this.message.replace(/^line \d+, column \d+: /, '');
  }
}

/** A problem while running a script (the host keeps the message). */
export class SieveRuntimeError extends Error {
  constructor(
    message: string,
    readonly position: Position,
  ) {
    super(`line ${position.line}: ${message}`);
    this.name = 'SieveRuntimeError';
  }
}
