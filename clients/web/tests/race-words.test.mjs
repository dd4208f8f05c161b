import { test } from 'node:test';
import assert from 'node:assert/strict';
import { placeSoFar, progressCounts, progressStatus, ratingNote, solvedSoFarText } from '../js/race-words.js';
import { progressTable } from '../js/room-state.js';

const member = (id, bot = false) => ({ player_id: id, name: id, bot, role: 'player', connected: true });
const room = (members, options = {}, status = 'lobby') => ({
  code: 'ABCD2345', variant: 'freecell', seed: '7', host_id: 'a', status, members, progress: [], host_chose_deal: false,
  options: { ranked: true, max_players: 16, ranking: 'moves', ...options },
});
const row = (id, status, moves, timeMs = 1000) => ({ player_id: id, name: id, status, moves, cards_on_foundations: 52, time_ms: timeMs });

test('a race says whether it moves ratings: two on one ladder, never one alone or one against a bot', () => {
  assert.equal(ratingNote(room([member('a'), member('b')])), 'ranked and rated');
  assert.equal(ratingNote(room([member('a')], { max_players: 1 })), 'on the leaderboard; a race of one rates nobody');
  assert.equal(ratingNote(room([member('a')])), 'ranked: rated once two or more race', 'a lobby may still fill');
  assert.equal(ratingNote(room([member('a')], {}, 'running')), 'on the leaderboard; a race of one rates nobody');
  assert.equal(ratingNote(room([member('a'), member('bot', true)])), 'on the leaderboard; a race with a bot changes no rating');
  assert.equal(ratingNote(room([member('a'), member('x', true), member('y', true)], {}, 'running')), 'ranked and rated',
    'two bots race on the bots\u2019 ladder');
  assert.match(ratingNote(room([member('a'), member('b')], { ranked: false })), /^practice/);
  assert.match(ratingNote({ ...room([member('a'), member('b')]), host_chose_deal: true }), /not rated \(the host chose the deal\)/);
});

test('a solve is placed among the solvers so far, by the room\u2019s ranking', () => {
  const racing = { ...room([member('a'), member('b'), member('c')], {}, 'running'),
    progress: [row('a', 'won', 53, 9000), row('b', 'won', 60, 5000), row('c', 'playing', 20)] };
  assert.equal(placeSoFar(racing, 'a'), 1);
  assert.equal(placeSoFar(racing, 'b'), 2);
  assert.equal(placeSoFar(racing, 'c'), null, 'not solved');
  const speed = { ...racing, options: { ...racing.options, ranking: 'speed' } };
  assert.equal(placeSoFar(speed, 'b'), 1);
  assert.equal(solvedSoFarText(racing, { player_moves: 53, time_ms: 9000 }, 1), 'Solved in 53 moves, best so far');
  assert.equal(solvedSoFarText(speed, { player_moves: 53, time_ms: 9000 }, 2), 'Solved in 0:09, 2nd so far');
  assert.equal(solvedSoFarText(racing, { player_moves: 1, time_ms: 0 }, 1), 'Solved in 1 move, best so far');
});

test('a progress row says "solved" while the race runs, "won" once first in the standings; one move is singular', () => {
  assert.equal(progressStatus(row('a', 'won', 53)), 'solved');
  assert.equal(progressStatus(row('a', 'won', 53), 1), 'won');
  assert.equal(progressStatus(row('a', 'won', 53), 2), 'solved');
  assert.equal(progressCounts({ ...row('a', 'playing', 1), cards_on_foundations: 1 }, 52), '1/52 home \u00b7 1 move \u00b7 playing');
});

test('once the race is over the final progress takes the standings\u2019 counts and outcome', () => {
  const over = { ...room([member('a'), member('b')], {}, 'finished'), progress: [row('a', 'playing', 44), row('b', 'won', 50)] };
  const standings = [
    { player_id: 'b', name: 'b', rank: 1, outcome: 'won', moves: 50, cards_on_foundations: 52, time_ms: 1000 },
    { player_id: 'a', name: 'a', rank: 2, outcome: 'timeout', moves: 45, cards_on_foundations: 30, time_ms: 60000 },
    { player_id: 'c', name: 'c', rank: 3, outcome: 'resigned', moves: 0, cards_on_foundations: 0, time_ms: 0 },
  ];
  const rows = progressTable(over, standings);
  assert.deepEqual(rows.map((item) => [item.player_id, item.status, item.moves, item.rank]),
    [['b', 'won', 50, 1], ['a', 'timeout', 45, 2], ['c', 'resigned', 0, 3]]);
  assert.equal(progressCounts(rows[1], 52, rows[1].rank), '30/52 home \u00b7 45 moves \u00b7 out of time');
});
