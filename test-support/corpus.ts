import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import { createReadStream, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

const generator = new URL('../../shared/corpus/gen-mailbox.mjs', import.meta.url).pathname;

/** One message of the corpus as its manifest describes it. */
export interface CorpusEntry {
  file: string;
  messageId: string;
  date: string;
  subject: string;
  size: number;
  flags?: string[];
}

/**
 * The shared corpus of `count` messages (../shared/corpus/gen-mailbox.mjs, seed 42: CRLF .eml files and a
 * manifest), generated once into the temporary folder and kept for later runs (benches and tests).
 */
export async function corpus(
  count: number,
): Promise<{ dir: string; files: string[]; bytes: number; entries: CorpusEntry[] }> {
  const dir = path.join(os.tmpdir(), `mailroom-corpus-42-${count}`);
  const manifest = path.join(dir, 'manifest.jsonl');
  if (!existsSync(manifest)) {
    await fs.rm(dir, { recursive: true, force: true });
    execFileSync(process.execPath, [generator, '--count', String(count), '--seed', '42', '--out', dir], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  const files: string[] = [];
  const entries: CorpusEntry[] = [];
  let bytes = 0;
  for await (const line of readline.createInterface({ input: createReadStream(manifest) }))
    if (line.trim()) {
      const entry = JSON.parse(line) as CorpusEntry;
      entries.push(entry);
      files.push(path.join(dir, entry.file));
      bytes += entry.size;
    }
  return { dir, files, bytes, entries };
}
