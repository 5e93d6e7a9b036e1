import { describe, expect, it } from 'vitest';
import { createLimiter } from './upload';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe('the upload queue', () => {
  it('runs at most four uploads at once and starts the next as one finishes', async () => {
    const run = createLimiter(4);
    const gates = Array.from({ length: 6 }, deferred);
    const started: number[] = [];
    const results = gates.map((gate, index) =>
      run(async () => {
        started.push(index);
        await gate.promise;
        return index;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2, 3]);
    gates[2]!.resolve();
    await results[2];
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(started).toEqual([0, 1, 2, 3, 4]);
    for (const gate of gates) gate.resolve();
    expect(await Promise.all(results)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('goes on after a failed upload', async () => {
    const run = createLimiter(1);
    const failed = run(() => Promise.reject(new Error('413')));
    const next = run(() => Promise.resolve('ok'));
    await expect(failed).rejects.toThrow('413');
    await expect(next).resolves.toBe('ok');
  });
});
