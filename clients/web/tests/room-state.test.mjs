import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  applyMembership, applyProgress, clockOffsetFromCountdown, players, progressTable, secondsUntil, spectators,
} from '../js/room-state.js';
import { backoffDelay, Connection, restartDelay, serverUrl, httpBase } from '../js/connection.js';

const member = (id, role = 'player') => ({ player_id: id, name: id, bot: false, role, connected: true });
const room = {
  code: 'ABCD2345', variant: 'freecell', seed: 7, host_id: 'a', options: {}, status: 'lobby',
  members: [member('a'), member('b')], progress: [],
};

test('members join, leave (the host moving) and drop as the small events say', () => {
  let state = applyMembership(room, { type: 'member_joined', code: 'ABCD2345', member: member('c', 'spectator') });
  assert.deepEqual(players(state).map((m) => m.player_id), ['a', 'b']);
  assert.deepEqual(spectators(state).map((m) => m.player_id), ['c']);
  state = applyMembership(state, { type: 'member_joined', code: 'ABCD2345', member: member('c', 'spectator') });
  assert.equal(state.members.length, 3, 'a repeated join replaces, never duplicates');
  state = applyMembership(state, { type: 'member_connection', code: 'ABCD2345', player_id: 'b', connected: false });
  assert.equal(state.members.find((m) => m.player_id === 'b').connected, false);
  state = applyMembership(state, { type: 'member_left', code: 'ABCD2345', player_id: 'a', host_id: 'b' });
  assert.equal(state.host_id, 'b');
  assert.deepEqual(state.members.map((m) => m.player_id), ['b', 'c']);
  assert.equal(room.members.length, 2, 'the room given is untouched');
  assert.equal(applyMembership(room, { type: 'member_left', code: 'OTHER', player_id: 'a', host_id: 'b' }), room);
});

test('progress rows replace each other per player and sort by cards home', () => {
  const row = (id, cards, moves) => ({ player_id: id, name: id, status: 'playing', cards_on_foundations: cards, moves, time_ms: 0 });
  let state = applyProgress(room, { type: 'progress', code: 'ABCD2345', progress: row('a', 3, 10) });
  state = applyProgress(state, { type: 'progress', code: 'ABCD2345', progress: row('b', 5, 12) });
  state = applyProgress(state, { type: 'progress', code: 'ABCD2345', progress: row('a', 5, 11) });
  assert.deepEqual(progressTable(state).map((r) => [r.player_id, r.cards_on_foundations]), [['a', 5], ['b', 5]]);
});

test('the countdown sets the clock offset; seconds left count on the server clock', () => {
  const now = Date.parse('2026-11-25T07:00:00Z');
  const offset = clockOffsetFromCountdown({ starts_at: '2026-11-25T07:00:05Z', seconds: 3 }, now);
  assert.equal(offset, 2000, 'the server is 2 s ahead');
  assert.equal(secondsUntil('2026-11-25T07:00:05Z', now, offset), 3);
  assert.equal(secondsUntil('2026-11-25T07:00:05Z', now + 10000, offset), 0);
  assert.equal(clockOffsetFromCountdown({ starts_at: 'nonsense', seconds: 3 }, now), null);
});

test('reconnect delays double from 250 ms to 5 s with jitter', () => {
  assert.equal(backoffDelay(1, () => 1), 250);
  assert.equal(backoffDelay(1, () => 0), 125);
  assert.equal(backoffDelay(3, () => 1), 1000);
  assert.equal(backoffDelay(20, () => 1), 5000);
});

test('a 1012 close (the server process is stopping) reconnects at once, with jitter, and is not an error', () => {
  assert.equal(restartDelay(() => 0), 0);
  assert.equal(restartDelay(() => 0.999), 249.75);
  const sockets = [];
  class Socket {  // the transport's events as a browser's WebSocket gives them
    constructor(url) { this.url = url; this.handlers = {}; sockets.push(this); }
    addEventListener(kind, handler) { this.handlers[kind] = handler; }
    close() {}
  }
  const states = [];
  const connection = new Connection({
    url: 'ws://127.0.0.1:1/', identity: { load: () => null }, WebSocketImpl: Socket, random: () => 0.5,
    onMessage: () => {}, onState: (state, detail) => states.push([state, detail]),
  });
  connection.start();
  sockets[0].handlers.close({ code: 1012, reason: 'server restarting' });
  const [state, detail] = states.at(-1);
  assert.equal(state, 'reconnecting');
  assert.deepEqual(detail, { delay: 125, error: 'the server is restarting', restart: true });
  sockets.length = 0;
  connection.retryTimer && clearTimeout(connection.retryTimer);
  connection.start();
  sockets[0].handlers.close({ code: 1006, reason: '' });  // no process answers yet: the backoff, still restarting
  assert.deepEqual(states.at(-1), ['reconnecting', { delay: 375, error: 'the server is restarting', restart: false }]);
  clearTimeout(connection.retryTimer);
});

test('the socket goes to the page host unless ?server= says otherwise', () => {
  assert.equal(serverUrl({ search: '', protocol: 'http:', host: '127.0.0.1:8765' }), 'ws://127.0.0.1:8765/');
  assert.equal(serverUrl({ search: '', protocol: 'https:', host: 'arena.example' }), 'wss://arena.example/');
  assert.equal(serverUrl({ search: '?server=ws://127.0.0.1:9000/', protocol: 'http:', host: 'x' }),
    'ws://127.0.0.1:9000/');
  assert.equal(serverUrl({ search: '?server=javascript:alert(1)', protocol: 'http:', host: 'h' }), 'ws://h/');
  assert.equal(httpBase('ws://127.0.0.1:9000/'), 'http://127.0.0.1:9000');
});

test('seeds travel as decimal strings: exact through JSON.parse however large; typed numbers too', async () => {
  const { parseMessage, encodeMessage, wholeNumber } = await import('../js/connection.js');
  const text = '{"type":"race_over","seed":"9223372036854775807","standings":[]}';
  const message = parseMessage(text);
  assert.equal(message.seed, '9223372036854775807');
  assert.equal(encodeMessage(message), text);
  assert.equal(wholeNumber('42'), '42');
  assert.equal(wholeNumber(' 007 '), '7');
  assert.equal(wholeNumber('9223372036854775807'), '9223372036854775807');
  assert.equal(wholeNumber('-1'), null);
  assert.equal(wholeNumber('1e5'), null);
});
