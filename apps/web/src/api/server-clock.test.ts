import { describe, expect, it } from 'vitest';
import { ServerClock } from './server-clock';

describe('ServerClock: from when the websocket must catch up', () => {
  it('before a socket: the oldest answer; caught up: nothing, and late answers are asked for; closed: about then', () => {
    let now = 10_000;
    const clock = new ServerClock(() => now);
    expect(clock.sinceForOpen()).toBeNull();
    clock.noteAnswer(5_020); // the server's clock runs 4,980 ms behind this page's
    clock.noteAnswer(5_010);
    expect(clock.sinceForOpen()).toBe(5_010);

    const late: number[] = [];
    clock.caughtUp(5_100, (at) => late.push(at));
    clock.noteAnswer(5_050); // begun before the socket subscribed, arrived after
    clock.noteAnswer(5_200);
    expect(late).toEqual([5_050]);

    now = 20_000;
    clock.lost();
    expect(clock.sinceForOpen()).toBe(20_000 + (5_200 - 10_000));
  });
});
