import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { holdsNul } from './no-nul.js';

describe('the NUL check of request values', () => {
  it('finds a NUL in a nested JSON value, a key, or a query made without a prototype', () => {
    expect(holdsNul({ a: [{ b: 'x\u0000y' }] })).toBe(true);
    expect(holdsNul({ ['k\u0000']: 1 })).toBe(true);
    expect(holdsNul(Object.assign(Object.create(null) as object, { q: '\u0000' }))).toBe(true);
    // The query parser's objects: a prototype that is neither null nor Object's.
    const empty = Object.create(Object.create(null) as object) as object;
    expect(holdsNul(Object.assign(empty, { q: '\u0000' }))).toBe(true);
    expect(holdsNul({ a: ['fine', { b: 'fine' }] })).toBe(false);
  });

  it('does not walk a body taken as a stream, however its objects refer to each other', () => {
    // Two objects that each hold both: walked as plain data, 2^64 paths (a request's socket and server are such).
    const left: Record<string, unknown> = {};
    const right: Record<string, unknown> = { left };
    left.right = right;
    left.left = left;
    right.right = right;
    const stream = Object.assign(new PassThrough(), { graph: left });
    const started = performance.now();
    expect(holdsNul(stream)).toBe(false);
    expect(performance.now() - started).toBeLessThan(100);
  });
});
