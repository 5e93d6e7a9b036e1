import { createHash } from 'node:crypto';

/**
 * Which statements are worth a name. A named (prepared) statement is parsed and analysed once per
 * connection, and after five runs PostgreSQL may keep one generic plan for it: planning then costs
 * nothing. That matters most on PGlite, PostgreSQL compiled to WebAssembly, where planning a folder
 * page took longer than running it (0.5–5 ms against 0.1–0.3 ms on a 20k mailbox). Statements whose
 * text is made once (an IN list of a given length, a bulk insert) would only fill the server's
 * memory, so a text gets a name the second time it is seen, and at most `max` texts hold one.
 */
export class StatementCache {
  /** Text → name, oldest use first (a Map keeps insertion order; a use moves its entry to the end). */
  private readonly named = new Map<string, string>();
  private readonly seenOnce = new Set<string>();
  /** Part of every name: renew() moves it, so no name given before is given again. */
  private generation = 0;

  constructor(
    private readonly max: number,
    private readonly prefix = 'mailroom_',
  ) {}

  /**
   * The name to run `text` under, or null to run it unnamed. `evicted` receives the name a new
   * entry pushed out (for a driver that can close it).
   */
  nameFor(text: string, evicted?: (name: string) => void): string | null {
    if (this.max <= 0) return null;
    const known = this.named.get(text);
    if (known !== undefined) {
      this.named.delete(text);
      this.named.set(text, known);
      return known;
    }
    if (!this.seenOnce.has(text)) {
      if (this.seenOnce.size >= 4 * this.max) this.seenOnce.clear();
      this.seenOnce.add(text);
      return null;
    }
    this.seenOnce.delete(text);
    if (this.named.size >= this.max) {
      const [oldestText, oldestName] = this.named.entries().next().value!;
      this.named.delete(oldestText);
      evicted?.(oldestName);
    }
    const hash = createHash('sha1').update(text).digest('hex').slice(0, 20);
    const name = `${this.prefix}${this.generation}_${hash}`;
    this.named.set(text, name);
    return name;
  }

  /** Forgets a text (its statement failed to prepare). */
  forget(text: string): void {
    this.named.delete(text);
  }

  /**
   * Forgets every name, and never gives one of them again: after the schema changed under a
   * prepared statement (another process migrated the database), PostgreSQL refuses to run it,
   * and a connection that prepared a name keeps it until it closes.
   */
  renew(): void {
    this.named.clear();
    this.generation++;
  }
}

/** PostgreSQL's answer to a prepared statement whose result columns the schema has since changed. */
export function isStalePlan(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e.code === '0A000' && /cached plan must not change result type/.test(e.message ?? '');
}
