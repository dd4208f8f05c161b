// The example bot plays real races against a real server: two bots in a room one of them hosts, and a quick race.
import assert from 'node:assert/strict';
import test from 'node:test';

import { applyChanges, candidates, playRace } from '../bot.mjs';
import { Connection } from '../client.mjs';
import { startServer } from './server.mjs';

const FAST = { FREECELL_ARENA_RATE_LIMIT_PER_S: '200', FREECELL_ARENA_RATE_LIMIT_BURST: '200' };

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
