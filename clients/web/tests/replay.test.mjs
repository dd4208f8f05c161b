import { test } from 'node:test';
import assert from 'node:assert/strict';

import { replayViews } from '../js/pages/replay.js';
import { closesText } from '../js/pages/daily.js';
import { engineGames } from './engine-games.mjs';

test('a replay viewer rebuilds every board of a real game from start_view and steps', () => {
  for (const record of engineGames(30)) {
    const replay = {
      start_view: record.view, steps: record.turns.map((turn) => turn.changes),
      final_view: record.turns.at(-1).view, actions: record.turns.map((turn) => turn.action),
    };
    const views = replayViews(replay);
    assert.equal(views.length, record.turns.length + 1);
    assert.deepEqual(views[0], record.view);
    record.turns.forEach((turn, index) => assert.deepEqual(views[index + 1], turn.view, `${record.variant} ${index}`));
  }
});

test('a replay without steps (an older server) shows its final board only', () => {
  const views = replayViews({ final_view: { tableau: [] }, actions: ['3a'] });
  assert.deepEqual(views, [{ tableau: [] }]);
});

test('when a daily closes, in words', () => {
  const now = Date.parse('2026-11-25T06:50:00Z');
  assert.equal(closesText('2026-11-26T00:00:00Z', now), 'in 17 h 10 min (00:00 UTC)');
  assert.equal(closesText('2026-11-25T07:00:00Z', now), 'in 10 min (07:00 UTC)');
  assert.equal(closesText('nonsense', now), '');
});
