// Game text (../game-text.mjs): the files Python's tests hold the engine's reader and writer to
// (clients/conformance/game-text) read the same here, write back byte for byte, and the same bad texts are refused
// on the same line for the same reason.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import test from 'node:test';

import { GameTextError, readGame, readGames, writeGame, writeGames } from '../game-text.mjs';

const SHARED = new URL('../../conformance/game-text/', import.meta.url);
const shared = (name) => readFileSync(new URL(name, SHARED), 'utf8');

test('the shared games read as recorded and write back byte for byte', () => {
  const text = shared('games.fcgame');
  const games = [...readGames(text)];
  const expected = JSON.parse(shared('games.json'));
  assert.deepEqual(games.map((game) => ({ line: game.line, tags: [...game.tags], moves: game.moves })), expected);
  assert.equal(writeGames(games), text);
  assert.equal(games[1].tags.get('Seed'), '4611686018427387915', 'a seed beyond exact numbers stays a string');
});

test('the shared bad texts are refused with their line and why', () => {
  for (const { text, line, reason } of JSON.parse(shared('refusals.json'))) {
    assert.throws(() => [...readGames(text)], (error) => {
      assert.ok(error instanceof GameTextError, String(error));
      assert.equal(error.line, line, text);
      assert.ok(error.reason.includes(reason), `${error.reason} / ${reason}`);
      return true;
    });
  }
});

test('a game written from tags in any order reads back the same, the roster first', () => {
  const written = writeGame({ tags: { Game: 'g_1', Result: 'won', Seed: '11982', Variant: 'freecell', Player: 'A "B"' }, moves: ['3a', '82'] });
  assert.equal(written, '[Variant "freecell"]\n[Seed "11982"]\n[Player "A \\"B\\""]\n[Result "won"]\n[Game "g_1"]\n\n3a 82\n');
  const game = readGame(written);
  assert.equal(game.tags.get('Player'), 'A "B"');
  assert.deepEqual(game.moves, ['3a', '82']);
  assert.throws(() => readGame(written + '\n' + written), /expected one game, found 2/);
  assert.throws(() => writeGame({ tags: { Variant: 'freecell' } }), /needs its Seed tag/);
});
