// The example bot plays real races against a real server: two bots in a room one of them hosts, and a quick race;
// then its race outlives its connections: a rolling restart (SIGTERM: 1012, a new process on the same port and
// database), a killed server that never comes back (1006, the backoff, giving up), and a close that says not to
// come back (4000: the same identity connected elsewhere).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import test from 'node:test';
import { fileURLToPath } from 'node:url';

import { applyChanges, candidates, playRace, runRace } from '../bot.mjs';
import {
  ArenaError, CLOSE_BANNED, CLOSE_REPLACED, CLOSE_REVOKED, CLOSE_SERVICE_RESTART, ConnectFailed, Connection,
  ConnectionClosed, FrameTimeout, Reconnect,
} from '../client.mjs';
import { startServer } from './server.mjs';

const FAST = { FREECELL_ARENA_RATE_LIMIT_PER_S: '200', FREECELL_ARENA_RATE_LIMIT_BURST: '200' };
// 10 requests a second: the example bot's game of deal 7654 (about 90 requests) lasts some 9 s, so a signal sent as
// the race starts lands mid-game, the drain's 1 s grace included
const SLOW = { FREECELL_ARENA_RATE_LIMIT_PER_S: '10', FREECELL_ARENA_RATE_LIMIT_BURST: '10' };
const DRAIN = { ...SLOW, FREECELL_ARENA_DRAIN_GRACE_S: '1', FREECELL_ARENA_SHUTDOWN_TIMEOUT_S: '5' };
const BOT = join(dirname(dirname(fileURLToPath(import.meta.url))), 'bot.mjs');

async function twoBots(server, play) {
  const host = await Connection.open(server.url);
  const guest = await Connection.open(server.url);
  try {
    const welcomes = [await host.hello('ada-js'), await guest.hello('bob-js')];
    return { welcomes, results: await play(host, guest) };
  } finally {
    host.close();
    guest.close();
  }
}

test('two example bots race a room to its standings', { timeout: 300_000 }, async () => {
  const server = await startServer(FAST);
  try {
    let announce;
    const roomCode = new Promise((resolve) => { announce = resolve; });
    const log = (line) => { const found = /^room (\S+)/.exec(line); if (found) announce(found[1]); };
    const { welcomes, results } = await twoBots(server, (host, guest) => Promise.all([
      playRace(host, { create: { variant: 'freecell', seed: '7654', players: 2, countdown: 0 }, log }),
      roomCode.then((code) => playRace(guest, { room: code })),
    ]));
    const [mine, theirs] = results;
    assert.equal(welcomes[0].protocol, 4);
    assert.equal(welcomes[0].limits.rate_per_s, 200, 'the bot paces itself by what welcome says');
    assert.equal(mine.code, theirs.code);
    assert.equal(mine.seed, '7654');
    assert.deepEqual(new Set(mine.standings.map((row) => row.player_id)), new Set(welcomes.map((w) => w.player_id)));
    assert.ok(mine.moves > 0 && theirs.moves > 0, 'both played moves the server accepted');
    for (const result of results) assert.ok(['won', 'resigned', 'stuck'].includes(result.outcome), result.outcome);
  } finally {
    await server.stop();
  }
});

test('two example bots meet in a quick race', { timeout: 300_000 }, async () => {
  const server = await startServer({ ...FAST, FREECELL_ARENA_QUICK_RACE_WAIT_S: '0', FREECELL_ARENA_QUICK_RACE_MIN_PLAYERS: '2' });
  try {
    const { welcomes, results } = await twoBots(server, (host, guest) => Promise.all([
      playRace(host, { quick: 'chinese-freecell' }),
      playRace(guest, { quick: 'chinese-freecell' }),
    ]));
    assert.equal(welcomes[1].quick_race.min_players, 2);
    assert.equal(results[0].code, results[1].code);
    assert.equal(typeof results[0].seed, 'string', 'a drawn seed, as a decimal string');
    assert.equal(results[0].standings.length, 2);
  } finally {
    await server.stop();
  }
});

test('candidates send cards home first and read the board the server sent', () => {
  const view = {
    variant: 'freecell',
    tableau: [['5S', 'AH'], ['9C', '8D'], []],
    cells: ['7S', null],
    foundations: [{ suit: 'C', cards: 0, top: null }, { suit: 'D', cards: 0, top: null },
      { suit: 'H', cards: 0, top: null }, { suit: 'S', cards: 0, top: null }],
    cards_on_foundations: 0,
  };
  const moves = candidates(view);
  assert.deepEqual(moves[0], { from: 'tableau', from_index: 0, to: 'foundation', to_index: null, count: 1 });
  assert.ok(moves.some((move) => move.from === 'cell' && move.to === 'tableau' && move.to_index === 1), '7S onto 8D');
  const after = applyChanges(view, { tableau: { 0: ['5S'] }, foundations: [...view.foundations.slice(0, 2),
    { suit: 'H', cards: 1, top: 'AH' }, view.foundations[3]], cards_on_foundations: 1 });
  assert.deepEqual(after.tableau[0], ['5S']);
  assert.equal(after.cards_on_foundations, 1);
  assert.deepEqual(view.tableau[0], ['5S', 'AH'], 'the old view is left as it was');
});

/**
 * The bot command from the checkout: `onLine` sees each line of its output as it comes; resolves once it exits (or
 * is killed after `timeoutMs`) with its exit code and output.
 */
function botCommand(args, onLine = () => {}, timeoutMs = 90_000) {
  const child = spawn(process.execPath, ['--experimental-websocket', '--no-warnings', BOT, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let partial = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
    const lines = (partial + chunk).split('\n');
    partial = lines.pop();
    lines.forEach(onLine);
  });
  child.stderr.on('data', (chunk) => { err += chunk; });
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve) => child.on('exit', (code, signal) => {
    clearTimeout(timer);
    resolve({ code: code ?? signal, out, err });
  }));
}

/** Resolves once `line` matches `pattern`; rejects if the bot exits first (its output in the message). */
function awaitLine(bot, lines, pattern) {
  return Promise.race([
    new Promise((resolve) => lines.push((line) => pattern.test(line) && resolve(line))),
    bot.then(({ code, out, err }) => { throw new Error(`the bot exited (${code}) before ${pattern}: ${out}${err}`); }),
  ]);
}

test('the bot comes back after a rolling restart (1012) and finishes its race on the next process', { timeout: 120_000 }, async () => {
  const first = await startServer(DRAIN);
  let second = null;
  try {
    const watchers = [];
    const bot = botCommand([first.url, '--create', 'freecell', '--seed', '7654', '--name', 'comeback-js'],
      (line) => watchers.forEach((watch) => watch(line)));
    await awaitLine(bot, watchers, /^race started/);
    assert.equal(await first.signal('SIGTERM'), 0, 'the first process drained, closed with 1012 and exited');
    second = await startServer(DRAIN, { port: first.port, folder: first.folder }); // the same port and database
    const { code, out, err } = await bot;
    assert.equal(code, 0, `${out}${err}`);
    const [, restartWait] = /; the server is restarting: reconnecting in (\d+\.\d+) s$/m.exec(out) ?? assert.fail(out);
    assert.ok(Number(restartWait) <= 0.25, `after a 1012 at once (0 to 250 ms), not after the backoff: ${out}`);
    const [, resumedIn, resumedAfter] = /^resumed in room (\S+), game playing after (\d+) moves$/m.exec(out) ?? assert.fail(out);
    const [, playerId] = /^hello comeback-js \((\S+)\)/m.exec(out);
    const [, room] = /^room (\S+)$/m.exec(out);
    assert.equal(resumedIn, room, 'the same player, seated again in its room with its game');
    const [, outcome, moves] = /^(won|resigned|stuck) in (\d+) moves, rank 1 of 1 \(seed 7654\), 1 reconnect$/m.exec(out) ?? assert.fail(out);
    assert.ok(Number(moves) >= Number(resumedAfter), out);
    // the new process stored the game's end: the player's history has it
    const history = await (await fetch(`http://127.0.0.1:${second.port}/api/players/${playerId}/history`)).json();
    const game = history.games.find((row) => row.room_code === room) ?? assert.fail(JSON.stringify(history));
    assert.deepEqual([game.outcome, game.player_moves, game.place], [outcome, Number(moves), 1]);
  } finally {
    await second?.stop();
    await first.stop();
  }
});

test('a killed server (1006) that never comes back: the bot backs off, then gives up with exit code 3', { timeout: 60_000 }, async () => {
  const server = await startServer(SLOW);
  try {
    const watchers = [];
    const bot = botCommand([server.url, '--create', 'freecell', '--seed', '7654', '--give-up-after', '3'],
      (line) => watchers.forEach((watch) => watch(line)));
    await awaitLine(bot, watchers, /^race started/);
    const killedAt = Date.now();
    assert.equal(await server.signal('SIGKILL'), 'SIGKILL');
    const { code, out, err } = await bot;
    assert.equal(code, 3, `${out}${err}`);
    assert.match(err, /^gave up reconnecting after \d+ s of failed attempts: cannot connect to ws:\/\/127\.0\.0\.1:\d+\/$/m);
    assert.ok(Date.now() - killedAt < 3_000 + 5_000 + 2_000, 'within the give-up time and one more attempt');
    assert.match(out, /^the connection closed \(1006\); reconnecting in \d+\.\d+ s$/m, 'no close frame: the backoff');
    // after the loss (attempt 1), each failed attempt n waits 0.25 s doubling (2^(n-1)), up to 5 s, times 0.5 to 1
    const waits = [...out.matchAll(/; trying again in (\d+\.\d+) s$/gm)].map(([, seconds]) => Number(seconds));
    assert.ok(waits.length >= 2, out);
    waits.forEach((wait, index) => {
      const most = Math.min(5, 0.25 * 2 ** (index + 1));
      assert.ok(wait >= most / 2 - 0.01 && wait <= most + 0.01, `wait ${index + 2} within ${most / 2}-${most} s: ${waits}`);
    });
  } finally {
    await server.stop();
  }
});

test('a close that says not to come back (4000: replaced) ends the race with no other connection', { timeout: 60_000 }, async () => {
  const server = await startServer(SLOW);
  let usurper = null;
  try {
    const welcomes = [];
    let started;
    const raceStarted = new Promise((resolve) => { started = resolve; });
    const race = runRace(server.url, {
      create: { variant: 'freecell', seed: '7654' }, name: 'replaced-js', onWelcome: (welcome) => welcomes.push(welcome),
      log: (line) => /^race started/.test(line) && started(),
    });
    race.catch(() => {}); // awaited below, once the usurper has taken over
    await raceStarted;
    usurper = await Connection.open(server.url);
    assert.ok((await usurper.hello('usurper', { token: welcomes[0].token })).resumed, 'the same identity, elsewhere');
    await assert.rejects(race, (error) => {
      assert.ok(error instanceof ConnectionClosed && error.final, error);
      assert.equal(error.code, CLOSE_REPLACED);
      assert.match(error.message, /another connection took over this player's identity; not reconnecting/);
      return true;
    });
    // had the bot come back, its hello would have replaced the usurper's connection in turn
    const deadline = Date.now() + 1_500;
    for (let left = 1_500; left > 0; left = deadline - Date.now()) {
      const item = await usurper.next(left).catch((error) => { if (!(error instanceof FrameTimeout)) throw error; return null; });
      if (item === null) break;
      assert.equal(item.closed, undefined, 'the usurper keeps its connection');
    }
    assert.equal(welcomes.length, 1, 'one hello, no other');
  } finally {
    usurper?.close();
    await server.stop();
  }
});

test('Reconnect: at once after a 1012, a growing backoff after other losses, never after 4000, 4001, 4002', () => {
  const reconnect = new Reconnect();
  const closed = (code) => new ConnectionClosed(code, '');
  assert.equal(reconnect.classify(closed(CLOSE_SERVICE_RESTART)), 'restart');
  for (const code of [1006, 1008, 1009, 1011]) assert.equal(reconnect.classify(closed(code)), 'backoff', code);
  for (const code of [CLOSE_REPLACED, CLOSE_REVOKED, CLOSE_BANNED]) assert.equal(reconnect.classify(closed(code)), 'stop', code);
  assert.match(closed(CLOSE_BANNED).message, /a moderator banned this player; not reconnecting/);
  assert.equal(reconnect.classify(new ConnectFailed('cannot connect')), 'backoff');
  assert.equal(reconnect.classify(new FrameTimeout('nothing came')), 'backoff');
  const refusal = (code) => new ArenaError({ type: 'error', id: 1, code, message: code });
  assert.equal(reconnect.classify(refusal('shutting_down')), 'restart', 'a stopping process: its 1012 is on the way');
  assert.equal(reconnect.classify(refusal('storage_failed'), { hello: true }), 'backoff', 'hello: not now');
  assert.equal(reconnect.classify(refusal('storage_failed')), 'stop', 'a refused request is no lost connection');
  assert.equal(reconnect.classify(refusal('banned'), { hello: true }), 'stop');
  assert.equal(reconnect.classify(new Error('the bot raised')), 'stop');
  for (let trial = 0; trial < 100; trial += 1) {
    assert.ok(reconnect.restartDelay() >= 0 && reconnect.restartDelay() <= 250);
    for (const [attempt, most] of [[1, 250], [2, 500], [3, 1000], [5, 4000], [6, 5000], [20, 5000]]) {
      const delay = reconnect.delay(attempt);
      assert.ok(delay >= most / 2 && delay <= most, `attempt ${attempt}: ${delay} ms`);
    }
  }
});
