import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from './client';
import { errorDisplayMessage, type ErrorTranslator } from './error-message';

const catalogue: Record<string, string> = {
  internal_error: 'Internal server error, try later',
  folder_children_exist: 'The folder contains subfolders!',
};
const translate: ErrorTranslator = {
  catalogue: (code) => catalogue[code] ?? null,
  fallback: 'smth went wrong',
  unreachable: 'The server cannot be reached',
};

describe('errorDisplayMessage (SPEC §8)', () => {
  it('shows the translated internal_error for any 500, whatever the body says', () => {
    expect(errorDisplayMessage(new ApiError(500, 'db exploded', 'folder_children_exist'), translate)).toBe(
      'Internal server error, try later',
    );
  });

  it('shows the translation of the i8s code when there is one', () => {
    expect(errorDisplayMessage(new ApiError(400, 'server text', 'folder_children_exist'), translate)).toBe(
      'The folder contains subfolders!',
    );
  });

  it('says the server cannot be reached when no answer came at all, not what fetch said', () => {
    expect(errorDisplayMessage(new NetworkError(new TypeError('Failed to fetch')), translate)).toBe(
      'The server cannot be reached',
    );
  });

  it('falls back to the server message when the code has no translation', () => {
    expect(errorDisplayMessage(new ApiError(400, 'Something specific', 'unknown_code'), translate)).toBe(
      'Something specific',
    );
  });

  it("falls back to 'smth went wrong' when there is no message at all", () => {
    expect(errorDisplayMessage(new ApiError(400, ''), translate)).toBe('smth went wrong');
    expect(errorDisplayMessage({}, translate)).toBe('smth went wrong');
  });

  it('shows the plain message of other errors', () => {
    expect(errorDisplayMessage(new TypeError('Failed to fetch'), translate)).toBe('Failed to fetch');
  });

  it("says 'Request Entity Too Large' for a 413 without a known code", () => {
    expect(errorDisplayMessage(new ApiError(413, ''), translate)).toBe('Request Entity Too Large');
  });

  it('ignores canceled requests', () => {
    expect(
      errorDisplayMessage(new DOMException('The user aborted a request.', 'AbortError'), translate),
    ).toBeNull();
    expect(errorDisplayMessage('canceled', translate)).toBeNull();
    expect(errorDisplayMessage(new Error('canceled'), translate)).toBeNull();
  });
});
