import { test } from 'node:test';
import assert from 'node:assert/strict';

import { GameState, ViewError, applyViewChanges, pileCards } from '../js/view-state.js';
import { engineGames } from './engine-games.mjs';

const games = engineGames(40);

function gameView(record, overrides = {}) {
  return {
    game_id: `g-${record.variant}`, room_code: 'ROOM', variant: record.variant, seed: 5, autoplay: true,
    undo_allowed: true, started_at: '2026-11-25T06:00:00+00:00', status: 'playing', player_moves: 0,
    single_card_moves: 0, cards_on_foundations: record.view.cards_on_foundations, time_ms: 0, actions: [],
    view: record.view, ...overrides,
  };
}

function accepted(record, turn, index, extra = {}) {
  return {
    type: 'move_accepted', game_id: `g-${record.variant}`, index, action: turn.action, move: null, autoplay: [],
    player_moves: index + 1, single_card_moves: index + 1, cards_on_foundations: turn.view.cards_on_foundations,
    time_ms: 1000 * (index + 1), status: 'playing', changes: turn.changes, ...extra,
  };
}

test('the engine played at least 30 actions of every variant, undos included', () => {
  assert.equal(games.length, 5);
  for (const record of games) {
    assert.ok(record.turns.length >= 30, `${record.variant}: ${record.turns.length} turns`);
    assert.ok(record.turns.some((turn) => turn.action === 'undo'), `${record.variant} has an undo`);
  }
});

test('changes put into the opening view give the engine view after every action, in every variant', () => {
  for (const record of games) {
    let view = record.view;
    for (const [number, turn] of record.turns.entries()) {
      view = applyViewChanges(view, turn.changes);
      assert.deepEqual(view, turn.view, `${record.variant}, action ${number + 1} (${turn.action})`);
    }
  }
});

test('applyViewChanges leaves the view it was given untouched', () => {
  const record = games[0];
  const before = JSON.stringify(record.view);
  applyViewChanges(record.view, record.turns[0].changes);
  assert.equal(JSON.stringify(record.view), before);
});

test('changes naming a column the view does not have are refused', () => {
  const view = games[0].view;
  assert.throws(() => applyViewChanges(view, { tableau: { 8: [] } }), ViewError);
  assert.throws(() => applyViewChanges(view, { tableau: { x: [] } }), ViewError);
  assert.throws(() => applyViewChanges(view, { tableau: { 0: 'AS' } }), ViewError);
  assert.throws(() => applyViewChanges(null, {}), ViewError);
});

test('the game state follows move_accepted in order; a pending move changes nothing until accepted', () => {
  for (const record of games) {
    const state = new GameState();
    state.load(gameView(record));
    for (const [index, turn] of record.turns.entries()) {
      state.addPending(index + 100, { notation: turn.action });
      assert.deepEqual(state.view, index ? record.turns[index - 1].view : record.view, 'pending applied nothing');
      assert.equal(state.accept(accepted(record, turn, index, { id: index + 100 })), 'applied');
      assert.equal(state.pending.size, 0);
    }
    assert.deepEqual(state.view, record.turns.at(-1).view);
    assert.equal(state.actions.length, record.turns.length);
    assert.equal(state.counts.player_moves, record.turns.length);
  }
});

test('an echo already in the view is skipped; a gap is reported; another game is ignored', () => {
  const record = games[1];
  const state = new GameState();
  state.load(gameView(record));
  assert.equal(state.accept(accepted(record, record.turns[0], 0)), 'applied');
  const after = state.view;
  assert.equal(state.accept(accepted(record, record.turns[0], 0)), 'stale');
  assert.equal(state.view, after, 'applying the same action twice would lose cards');
  assert.equal(state.accept(accepted(record, record.turns[2], 2)), 'gap');
  assert.equal(state.view, after);
  assert.equal(state.accept({ ...accepted(record, record.turns[1], 1), game_id: 'other' }), 'foreign');
  assert.equal(state.view, after);
});

test('a whole view after a reconnect replaces what was held and clears pending moves', () => {
  const record = games[2];
  const state = new GameState();
  state.load(gameView(record));
  state.addPending(7, { notation: 't1-c1' });
  const resumed = gameView(record, {
    view: record.turns[4].view, actions: record.turns.slice(0, 5).map((turn) => turn.action), player_moves: 5,
  });
  state.load(resumed);
  assert.equal(state.pending.size, 0);
  assert.deepEqual(state.view, record.turns[4].view);
  assert.equal(state.accept(accepted(record, record.turns[4], 4)), 'stale', 'the echo of a move the view holds');
  assert.equal(state.accept(accepted(record, record.turns[5], 5)), 'applied');
  assert.deepEqual(state.view, record.turns[5].view);
});

test('game_over ends the game with its outcome and counts; the clock stops', () => {
  const record = games[0];
  const state = new GameState();
  const started = Date.parse('2026-11-25T06:00:00+00:00');
  state.load(gameView(record, { time_ms: 1500 }), started);
  assert.equal(state.elapsedMs(started + 4200), 5700, 'the server count plus the time since it came');
  state.accept(accepted(record, record.turns[0], 0, { time_ms: 9000 }), started + 5000);
  assert.equal(state.elapsedMs(started + 5000), 9000, 'each accepted move sets the clock to the server count');
  assert.ok(state.finish({
    type: 'game_over', game_id: state.gameId, outcome: 'resigned', message: 'You resigned.', player_moves: 3,
    single_card_moves: 4, cards_on_foundations: 2, time_ms: 9000,
  }));
  assert.equal(state.status, 'resigned');
  assert.equal(state.elapsedMs(started + 60000), 9000, 'a finished game shows its final time');
  assert.equal(state.finish({ type: 'game_over', game_id: 'other' }), false);
});

test('pileCards reads columns, cells and a foundation top card', () => {
  const view = games[0].view;
  assert.deepEqual(pileCards(view, 'tableau', 0), view.tableau[0]);
  assert.deepEqual(pileCards(view, 'cell', 0), []);
  assert.deepEqual(pileCards(view, 'foundation', 1), ['AD']);
  const eleven = games.find((record) => record.variant === 'cell-eleven').view;
  assert.equal(pileCards(eleven, 'tableau', 6).filter((card) => card === null).length, 10, 'face-down cards are null');
});
