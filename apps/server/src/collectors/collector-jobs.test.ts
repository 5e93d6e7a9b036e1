import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { goneLocalOwners } from '../core/jobs/index.js';

describe('which lease owners are gone', () => {
  const host = os.hostname();
  const exitedPid = spawnSync(process.execPath, ['-e', '0']).pid!;

  it('a process of this host that has exited is gone', () => {
    expect(goneLocalOwners([`${host}:${exitedPid}:abcd1234`])).toEqual([`${host}:${exitedPid}:abcd1234`]);
  });

  it('this process, a live one, and any process of another host are never judged gone', () => {
    const live = `${host}:${process.ppid}:00000000`;
    expect(
      goneLocalOwners([
        `${host}:${process.pid}:abcd1234`,
        live,
        `elsewhere:${exitedPid}:abcd1234`,
        'garbage',
      ]),
    ).toEqual([]);
  });
});
