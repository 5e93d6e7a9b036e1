import { describe, expect, it } from 'vitest';
import { LiveConnection, liveUrl } from './live';

class FakeSocket extends EventTarget {
  sent: string[] = [];
  send(data: string) {
    this.sent.push(data);
  }
  close() {}
  emit(type: string, data?: string) {
    const event = type === 'message' ? new MessageEvent('message', { data }) : new Event(type);
    this.dispatchEvent(event);
  }
}

function setup() {
  const sockets: FakeSocket[] = [];
  const timers: { callback: () => void; ms: number }[] = [];
  const counts: number[] = [];
  const events: unknown[] = [];
  const connection = new LiveConnection({
    url: 'wss://mail.test/ws',
    onEvent: (event) => events.push(event),
    onReconnectCount: (count) => counts.push(count),
    createSocket: () => {
      const socket = new FakeSocket();
      sockets.push(socket);
      return socket as unknown as WebSocket;
    },
    setTimer: (callback, ms) => timers.push({ callback, ms }),
    clearTimer: () => {},
  });
  return { connection, sockets, timers, counts, events };
}

describe('live connection (SPEC §4)', () => {
  it('uses wss on https and ws on http, on the same host', () => {
    expect(liveUrl({ protocol: 'https:', host: 'mail.test' })).toBe('wss://mail.test/ws');
    expect(liveUrl({ protocol: 'http:', host: 'localhost:5173' })).toBe('ws://localhost:5173/ws');
  });

  it("says 'connection opening' on open and passes event frames on", () => {
    const { connection, sockets, events } = setup();
    connection.start();
    sockets[0]!.emit('open');
    expect(sockets[0]!.sent).toEqual(['connection opening']);
    sockets[0]!.emit('message', 'connection opening');
    sockets[0]!.emit('message', '{"event":"new","folder_id":1,"uids":[3]}');
    sockets[0]!.emit('message', 'not json');
    expect(events).toEqual([{ event: 'new', folder_id: 1, uids: [3] }]);
  });

  it('tells when the socket opens, the first time and after a reconnect', () => {
    let opened = 0;
    const sockets: FakeSocket[] = [];
    const timers: (() => void)[] = [];
    const connection = new LiveConnection({
      url: 'wss://mail.test/ws',
      onEvent: () => {},
      onOpen: () => opened++,
      createSocket: () => {
        sockets.push(new FakeSocket());
        return sockets.at(-1) as unknown as WebSocket;
      },
      setTimer: (callback) => timers.push(callback),
      clearTimer: () => {},
    });
    connection.start();
    expect(opened).toBe(0);
    sockets[0]!.emit('open');
    expect(opened).toBe(1);
    sockets[0]!.emit('close');
    timers.at(-1)!();
    sockets[1]!.emit('open');
    expect(opened).toBe(2);
  });

  it('retries 1 s after a close and 5 s after an error, resetting the count on open', () => {
    const { connection, sockets, timers, counts } = setup();
    connection.start();
    sockets[0]!.emit('close');
    expect(timers.at(-1)!.ms).toBe(1000);
    timers.at(-1)!.callback();
    sockets[1]!.emit('error');
    sockets[1]!.emit('close');
    expect(timers).toHaveLength(2);
    expect(timers.at(-1)!.ms).toBe(5000);
    expect(connection.reconnects).toBe(2);
    timers.at(-1)!.callback();
    sockets[2]!.emit('open');
    expect(connection.reconnects).toBe(0);
    expect(counts).toEqual([1, 2, 0]);
  });

  it('gives up after 10 tries and reports the count for the toast at 3', () => {
    const { connection, sockets, timers, counts } = setup();
    connection.start();
    for (let i = 0; i < 15; i++) {
      const scheduled = timers.length;
      sockets.at(-1)!.emit('close');
      if (timers.length > scheduled) timers.at(-1)!.callback();
    }
    expect(sockets).toHaveLength(11);
    expect(counts.includes(3)).toBe(true);
  });
});
