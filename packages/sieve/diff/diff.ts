/**
 * Differential test of @mailroom/sieve against Dovecot Pigeonhole's sieve-test: generated scripts ×
 * realistic messages, both outcomes normalised to the `mailroom sieve test` line form and compared.
 * Run through run.sh (it installs dovecot-sieve and runs sieve-test as an unprivileged user).
 *
 *   diff.ts --cases 2000 --seed 14 --work DIR --conf DIR/dovecot.conf [--user nobody]
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { evaluate, formatResult, type CompileOptions } from '../src/index.js';
import { sieveHostFor } from '../../../apps/server/src/filters/message-host.js';
import { generateScript, prng, vocabularyOf } from './generate.js';
import { messages } from './messages.js';
import { knownDifference } from './known.js';

const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: '2000' },
    seed: { type: 'string', default: '14' },
    work: { type: 'string' },
    conf: { type: 'string' },
    user: { type: 'string', default: '' },
    jobs: { type: 'string', default: '2' },
  },
});
if (!values.work || !values.conf) {
  console.error('usage: diff.ts --work DIR --conf dovecot.conf [--cases N] [--seed S] [--user nobody]');
  process.exit(64);
}
const work = values.work;
const conf = values.conf;
const cases = Number(values.cases);
const seed = Number(values.seed);

const recipients = ['me@example.com', 'me+tag@example.com', 'ann.lee+invoices@example.com'];

function envelopeFrom(raw: Buffer): string {
  const m = /^return-path:[ \t]*<([^>]+)>/im.exec(raw.toString('utf8'));
  return m ? m[1]! : 'sender@example.org';
}

/** Runs sieve-test in UTC (as --user when given); its stdout, stderr and exit code. */
function sieveTest(script: string, message: string, from: string, to: string) {
  return new Promise<{ stdout: string; stderr: string; code: number }>((resolve) => {
    const command = ['env', 'TZ=UTC', 'sieve-test', '-c', conf, '-f', from, '-r', to, script, message];
    // As root through runuser (sieve-test refuses to run as root); otherwise as ourselves.
    const [file, ...args] = values.user ? ['runuser', '-u', values.user, '--', ...command] : command;
    execFile(file!, args, { encoding: 'utf8', timeout: 30_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
      resolve({ stdout, stderr, code });
    });
  });
}

/** Pigeonhole's "Performed actions" / "Implicit keep" report in our line form. */
export function normalisePigeonhole(out: { stdout: string; stderr: string; code: number }): string[] {
  if (/failed to compile sieve script/.test(out.stderr)) return ['status=compile-error'];
  if (/final result: failed/.test(out.stderr)) return ['status=failed', 'implicit-keep'];
  if (!/final result: success/.test(out.stderr))
    return [`status=unknown code=${out.code} ${out.stderr.trim().split('\n').at(-1)}`];
  const lines = ['status=success'];
  type Store = { kind: 'store'; mailbox: string; flags: string[]; create: boolean; implicit: boolean };
  type Entry =
    | Store
    | { kind: 'line'; text: string }
    | { kind: 'redirect'; address: string; copy: boolean }
    | { kind: 'vacation'; subject: string | null; seconds: string };
  const entries: Entry[] = [];
  let section: 'none' | 'actions' | 'implicit' | 'message' = 'none';
  for (const line of out.stdout.split('\n')) {
    if (line === 'Performed actions:') section = 'actions';
    else if (line === 'Implicit keep:') section = 'implicit';
    else if (line === 'START MESSAGE') section = 'message';
    else if (line === 'END MESSAGE') section = 'actions';
    if (section === 'message' || section === 'none') continue;
    const last = entries.at(-1);
    let m: RegExpExecArray | null;
    if ((m = /^ \* store message in folder: (.*)$/.exec(line)))
      entries.push({
        kind: 'store',
        mailbox: m[1]!,
        flags: [],
        create: false,
        implicit: section === 'implicit',
      });
    else if ((m = /^ \* redirect message to: <(.*)>$/.exec(line)))
      entries.push({ kind: 'redirect', address: m[1]!, copy: false });
    else if (line === ' * discard') entries.push({ kind: 'line', text: 'discard' });
    else if ((m = /^ \* reject message with reason: (.*)$/.exec(line)))
      entries.push({ kind: 'line', text: `reject ${JSON.stringify(m[1])}` });
    else if (line === ' * send vacation message:')
      entries.push({ kind: 'vacation', subject: null, seconds: '?' });
    else if ((m = /^ {4}=> seconds : (\d+)$/.exec(line)) && last?.kind === 'vacation') last.seconds = m[1]!;
    else if ((m = /^ {4}=> subject : (.*)$/.exec(line)) && last?.kind === 'vacation') last.subject = m[1]!;
    else if ((m = /^\s+\+ add IMAP flags: (.*)$/.exec(line)) && last?.kind === 'store')
      last.flags = m[1]!.split(' ').filter(Boolean);
    else if (/^\s+\+ create mailbox if it does not exist$/.test(line) && last?.kind === 'store')
      last.create = true;
    else if (/^\s+\+ preserve implicit keep$/.test(line) && last?.kind === 'redirect') last.copy = true;
  }
  const flagText = (flags: string[]) => {
    const canon = [
      ...new Set(
        flags.map((f) =>
          /^\\(seen|answered|flagged|deleted|draft)$/i.test(f)
            ? `\\${f[1]!.toUpperCase()}${f.slice(2).toLowerCase()}`
            : f,
        ),
      ),
    ].sort();
    return canon.length ? ` flags=${canon.join(',')}` : '';
  };
  for (const e of entries) {
    if (e.kind === 'line') lines.push(e.text);
    else if (e.kind === 'redirect')
      lines.push(`redirect ${JSON.stringify(e.address)}${e.copy ? ' copy' : ''}`);
    else if (e.kind === 'vacation')
      lines.push(
        `vacation subject=${e.subject === null ? '<default>' : JSON.stringify(e.subject)} seconds=${e.seconds}`,
      );
    else if (e.implicit) lines.push(`implicit-keep${flagText(e.flags)}`);
    else if (e.mailbox === 'INBOX' && !e.create) lines.push(`keep${flagText(e.flags)}`);
    else lines.push(`fileinto ${JSON.stringify(e.mailbox)}${e.create ? ' create' : ''}${flagText(e.flags)}`);
  }
  return lines;
}

async function ours(
  script: string,
  raw: Buffer,
  from: string,
  to: string,
  options: CompileOptions = {},
): Promise<string[]> {
  const host = await sieveHostFor(raw, { envelopeFrom: from, envelopeTo: to });
  const outcome = evaluate(script, host, {}, options);
  // Pigeonhole prints a reject reason with control characters as "?".
  const lines = formatResult(outcome)
    .filter((l) => !l.startsWith('error '))
    .map((l) => (l.startsWith('reject ') ? l.replace(/\\[rnt]/g, '?') : l));
  if (outcome.status === 'success') {
    // Pigeonhole prints no subject when the script gave none (it is made when the reply is sent).
    const vacation = outcome.actions.find((a) => a.type === 'vacation');
    if (vacation?.type === 'vacation' && vacation.defaultSubject)
      return lines.map((l) =>
        l.startsWith('vacation ') ? l.replace(/subject=".*?(?<!\\)" /, 'subject=<default> ') : l,
      );
  }
  return lines;
}

/** When we refuse a script: our outcome if, like Pigeonhole, we did not check code that never runs. */
async function withoutUnreachable(
  script: string,
  raw: Buffer,
  from: string,
  to: string,
): Promise<string[] | null> {
  return ours(script, raw, from, to, { checkUnreachable: false });
}

async function main() {
  await fs.mkdir(path.join(work, 'cases'), { recursive: true });
  const messageFiles: string[] = [];
  for (const m of messages) {
    const file = path.join(work, `${m.name}.eml`);
    await fs.writeFile(file, m.raw, { mode: 0o644 });
    messageFiles.push(file);
  }
  const vocabularies = messages.map((m) => vocabularyOf(m.raw));
  const random = prng(seed);
  const counts = { agree: 0, known: 0, mismatch: 0 };
  const byStatus = new Map<string, number>();
  const byKnown = new Map<string, number>();
  const report: string[] = [];
  const jobs = Math.max(1, Number(values.jobs));
  const plan = Array.from({ length: cases }, (_, i) => {
    const mi = i % messages.length;
    const script = generateScript(random, vocabularies[mi]!);
    const to = recipients[Math.floor(random() * recipients.length)]!;
    return { i, mi, script, to };
  });
  let next = 0;
  const started = Date.now();
  async function worker() {
    for (;;) {
      const item = plan[next++];
      if (!item) return;
      const { i, mi, script, to } = item;
      const scriptFile = path.join(work, 'cases', `case-${i}.sieve`);
      await fs.writeFile(scriptFile, script, { mode: 0o644 });
      const raw = messages[mi]!.raw;
      const from = envelopeFrom(raw);
      const [theirs, mine] = [
        normalisePigeonhole(await sieveTest(scriptFile, messageFiles[mi]!, from, to)),
        await ours(script, raw, from, to),
      ];
      byStatus.set(theirs[0]!, (byStatus.get(theirs[0]!) ?? 0) + 1);
      if (theirs.join('\n') === mine.join('\n')) {
        counts.agree++;
        await fs.rm(scriptFile);
        continue;
      }
      // Pigeonhole does not check code it can tell never runs (KNOWN-DIFFERENCES.md §2).
      const lenient =
        mine[0] === 'status=compile-error' ? await withoutUnreachable(script, raw, from, to) : null;
      const known = knownDifference({
        script,
        message: messages[mi]!.name,
        theirs,
        ours: mine,
        ...(lenient ? { oursUnchecked: lenient } : {}),
      });
      if (known) {
        counts.known++;
        byKnown.set(known, (byKnown.get(known) ?? 0) + 1);
      } else counts.mismatch++;
      report.push(
        [
          `=== case ${i} (${messages[mi]!.name}, to ${to})${known ? ` known: ${known}` : ' MISMATCH'}`,
          script.trimEnd(),
          '--- pigeonhole',
          ...theirs,
          '--- ours',
          ...mine,
          '',
        ].join('\n'),
      );
    }
  }
  await Promise.all(Array.from({ length: jobs }, () => worker()));
  report.sort((a, b) => Number(/case (\d+)/.exec(a)![1]) - Number(/case (\d+)/.exec(b)![1]));
  await fs.writeFile(path.join(work, 'differences.txt'), report.join('\n'));
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`sieve diff: ${cases} cases (seed ${seed}, ${messages.length} messages) in ${seconds}s`);
  console.log(`  Pigeonhole outcomes: ${[...byStatus].map(([k, v]) => `${k} ${v}`).join(', ')}`);
  console.log(`  agree ${counts.agree}, known differences ${counts.known}, mismatches ${counts.mismatch}`);
  for (const [k, v] of byKnown) console.log(`    known: ${k}: ${v}`);
  // The first mismatches in full, so that a CI log shows what went wrong.
  for (const entry of report.filter((r) => r.includes(' MISMATCH\n')).slice(0, 3)) console.log(`\n${entry}`);
  process.exitCode = counts.mismatch ? 1 : 0;
}

await main();
