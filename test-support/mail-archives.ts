import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import tar from 'tar-stream';
import type { FolderSystem } from '@mailroom/protocol';

/** Builders of mail import files (mbox, a Google Takeout mbox, zip, tar.gz), for the import tests and benches. */

export const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** mboxrd's quoting: a body line `>*From ` gets one more `>`. */
export function mboxrdQuote(message: Buffer): Buffer {
  return Buffer.from(message.toString('latin1').replace(/^(>*From )/gm, '>$1'), 'latin1');
}

/** The date mbox() writes on its From lines, as a Date understands it. */
const MBOX_FROM_DATE = '2025-04-16T12:00:00Z';

/** An mbox of these messages (each given as its exact bytes), From lines dated `date`, mboxrd-quoted. */
export function mbox(messages: Buffer[], date = 'Wed Apr 16 12:00:00 +0000 2025'): Buffer {
  return Buffer.concat(
    messages.flatMap((m, i) => [
      Buffer.from(`From ${1000 + i}@xxx ${date}\r\n`),
      mboxrdQuote(m),
      Buffer.from(m.subarray(-1).toString() === '\n' ? '\r\n' : '\r\n\r\n'),
    ]),
  );
}

/** What a Takeout message is: the labels Gmail gave it and where we expect it. */
export interface TakeoutExpectation {
  /** The message's bytes (left out by takeoutMbox's `keepBytes: false`, for a bench of 100k); `hash` is theirs. */
  bytes: Buffer;
  hash: string;
  /** The topmost Received header's date: the received date the import must give it. */
  receivedAt: Date | null;
  messageId: string;
  system: FolderSystem | null;
  labels: string[];
  seen: boolean;
  flagged: boolean;
}

/**
 * Gmail labels for the n-th message, mixing every case of the mapping: a folder label (or none: archived),
 * Starred, Unread or Opened, a Category, Important, and labels of the member's own (one with a comma, one
 * non-ASCII as an encoded word, one nested with a slash).
 */
export function takeoutLabels(n: number): {
  header: string;
  expect: Omit<TakeoutExpectation, 'bytes' | 'messageId' | 'hash' | 'receivedAt'>;
} {
  const folder = ['Inbox', 'Inbox', 'Inbox', 'Sent', null, 'Spam', 'Trash', 'Drafts'][n % 8]!;
  const labels: string[] = [];
  const own: string[] = [];
  if (folder) labels.push(folder);
  if (n % 5 === 0) labels.push('Starred');
  labels.push(n % 3 === 0 ? 'Unread' : 'Opened');
  if (n % 4 === 0) labels.push('Category Promotions');
  if (n % 2 === 0) labels.push('Important');
  if (n % 6 === 0) own.push('Work');
  if (n % 7 === 0) own.push('Проекты/Альфа');
  if (n % 9 === 0) own.push('Friends, family');
  const encoded = own.map((l) =>
    /[^\x20-\x7e]/.test(l)
      ? `=?UTF-8?B?${Buffer.from(l).toString('base64')}?=`
      : l.includes(',')
        ? `"${l}"`
        : l,
  );
  const system: Record<string, FolderSystem> = {
    Inbox: 'inbox',
    Sent: 'sent',
    Spam: 'junk',
    Trash: 'trash',
    Drafts: 'draft',
  };
  return {
    header: `X-GM-THRID: ${1700000000000 + n}\r\nX-Gmail-Labels: ${[...labels, ...encoded].join(',')}\r\n`,
    expect: {
      system: folder ? system[folder]! : null,
      labels: own,
      seen: n % 3 !== 0,
      flagged: n % 5 === 0,
    },
  };
}

/** A Google Takeout-shaped mbox of corpus messages, written to `file`: what each message should become. */
export async function takeoutMbox(
  files: string[],
  entries: { messageId: string }[],
  file: string,
  { keepBytes = true } = {},
): Promise<TakeoutExpectation[]> {
  const out = createWriteStream(file);
  const expected: TakeoutExpectation[] = [];
  for (const [i, name] of files.entries()) {
    const { header, expect } = takeoutLabels(i);
    const bytes = Buffer.concat([Buffer.from(header), await fs.readFile(name)]);
    const received = /^Received:[^;]*;\s*([^\r\n]+)/m.exec(bytes.toString('latin1'))?.[1];
    // A date after now is passed over for the From line's (the corpus reaches into the future at 100k).
    const receivedAt = received ? new Date(received) : null;
    const sane = receivedAt && receivedAt.getTime() <= Date.now() + 3600_000;
    expected.push({
      bytes: keepBytes ? bytes : Buffer.alloc(0),
      hash: sha256(bytes),
      receivedAt: sane ? receivedAt : new Date(MBOX_FROM_DATE),
      messageId: entries[i]!.messageId,
      ...expect,
    });
    if (!out.write(mbox([bytes]))) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((resolve, reject) =>
    out.end((err?: Error | null) => (err ? reject(err) : resolve())),
  );
  return expected;
}

/**
 * A zip written by hand, so names no zip tool writes (`../x.eml`) and a declared size can be tested. Each entry is
 * deflated; names are UTF-8 (flag 0x800).
 */
export function zip(entries: { name: string; data: Buffer; declaredSize?: number }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, data, declaredSize } of entries) {
    const packed = zlib.deflateRawSync(data);
    const crc = zlib.crc32(data);
    const nameBytes = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(0x5a21, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x5a21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    // A central directory may claim any size: what a guard reads before unpacking.
    central.writeUInt32LE(declaredSize ?? data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, packed);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A .tar.gz of these entries, written to `file`. */
export async function tarGz(entries: { name: string; data: Buffer }[], file: string): Promise<void> {
  const pack = tar.pack();
  const done = pipeline(pack, zlib.createGzip(), createWriteStream(file));
  for (const { name, data } of entries) pack.entry({ name, size: data.length }, data);
  pack.finalize();
  await done;
}
