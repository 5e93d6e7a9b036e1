import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ImportUpload } from '@mailroom/protocol';
import { fakeApi } from '../../test/fake-api';
import { apiError } from '../../test/fixtures';
import { uploadImportFile, type UploadProgress } from './import-upload';

/** A server that keeps the parts it is sent, 4 bytes each; `drop` loses the connection on those PUT calls. */
function partServer(options: { drop?: number[]; received?: number } = {}) {
  let puts = 0;
  let parts: string[] = [];
  let upload: ImportUpload | null = null;
  const answer = () => ({
    upload: { ...upload!, received: parts.reduce((sum, part) => sum + part.length, 0) },
  });
  const api = fakeApi({
    createImportUpload: ({ body }) => {
      const { file_name, size } = body as { file_name: string; size: number };
      upload = { id: 7, file_name, size, received: 0, part_bytes: 4, created_at: '2026-11-29T10:00:00Z' };
      parts = [];
      return answer();
    },
    importUpload: () => (upload ? answer() : apiError(404, 'entity_not_found')),
    putImportUploadPart: async ({ params, body }) => {
      puts++;
      if (options.drop?.includes(puts)) throw new TypeError('Failed to fetch');
      const part = Number(params.part);
      if (part > parts.length) return apiError(400, 'invalid_request_params');
      parts[part] = await (body as Blob).text();
      return answer();
    },
  });
  return { api, text: () => parts.join(''), puts: () => puts };
}

afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
});

describe('uploading an import file in parts', () => {
  it('a part that does not go through is sent again after a pause, and the file arrives whole and in order', async () => {
    const server = partServer({ drop: [2] });
    const file = new File(['From a\nhello\nFrom b\nbye\n'], 'old.mbox', { lastModified: 1 });
    const seen: UploadProgress[] = [];
    const id = await uploadImportFile(file, (p) => seen.push(p), new AbortController().signal);
    expect(id).toBe(7);
    expect(server.text()).toBe(await file.text());
    expect(seen.some((p) => p.waiting)).toBe(true);
    expect(seen.at(-1)).toMatchObject({ sent: file.size, size: file.size, waiting: false });
  });

  it('the same file chosen again after a reload goes on from what the server has', async () => {
    const server = partServer();
    const file = new File(['0123456789abcdef'], 'again.mbox', { lastModified: 2 });
    const stop = new AbortController();
    // The page goes away after the second part.
    await uploadImportFile(
      file,
      (p) => {
        if (p.sent >= 8) stop.abort();
      },
      stop.signal,
    ).catch(() => undefined);
    const before = server.puts();
    expect(before).toBe(2);
    await uploadImportFile(file, () => undefined, new AbortController().signal);
    expect(server.text()).toBe('0123456789abcdef');
    // Only the parts the server did not have were sent.
    expect(server.puts() - before).toBe(2);
  });

  it('a refusal that is not the network (the quota, say) ends the upload with it', async () => {
    fakeApi({ createImportUpload: apiError(413, 'import_file_too_large') });
    const file = new File(['x'], 'big.mbox');
    await expect(uploadImportFile(file, () => undefined, new AbortController().signal)).rejects.toMatchObject(
      {
        code: 'import_file_too_large',
      },
    );
  });
});
