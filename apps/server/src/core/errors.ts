import type { ErrorCode } from '@mailroom/protocol';

/**
 * What services and repositories throw: a catalogue code and, optionally, a message for the
 * user (defaults to the catalogue's). Storage never throws HTTP errors; the error handler maps
 * these to the uniform body.
 */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message?: string,
  ) {
    super(message ?? code);
    this.name = 'DomainError';
  }
  get userMessage(): string | undefined {
    return this.message === this.code ? undefined : this.message;
  }
}
