import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderHook } from '@testing-library/react';
import { useBlobLinks } from './attachment-list';

describe("a decrypted message's attachments", () => {
  afterEach(() => vi.restoreAllMocks());

  it('are downloads of application/octet-stream whatever type their sender gave, never documents of our origin', () => {
    const made: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      made.push(blob as Blob);
      return `blob:test/${made.length}`;
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const bytes = new TextEncoder().encode('<script>alert(1)</script>');
    const files = ['text/html', 'image/svg+xml', 'application/xhtml+xml', 'text/plain', ''].map(
      (type, i) => ({
        name: `file-${i}`,
        type,
        bytes,
      }),
    );
    const { result } = renderHook(() => useBlobLinks(files));
    expect(result.current.map((link) => link.name)).toEqual(files.map((f) => f.name));
    expect(made.map((blob) => blob.type)).toEqual(files.map(() => 'application/octet-stream'));
  });
});
