import assert from 'node:assert/strict';
import { test } from 'node:test';

import { firstLoss, firstReached } from '../js/lost-moves.js';

const line = (...counts) => counts.map((cards) => ({ cards_on_foundations: cards }));

test('each count of cards home is reached at the first action that has it', () => {
  assert.deepEqual(firstReached(line(0, 0, 2, 2, 3)), [0, 2, 2, 4]);
});

test('the first count reached later than the solver is where moves were lost', () => {
  const par = line(0, 1, 1, 2, 3, 4);
  const yours = line(0, 1, 1, 1, 1, 2, 3, 4); // kept pace to 1 card, then two moves more for the second
  assert.deepEqual(firstLoss(yours, par), { cards: 2, yourMove: 5, parMove: 3, keptUntil: 1 });
});

test('a line that never fell behind has no loss; one that stopped short is behind at its next card', () => {
  assert.equal(firstLoss(line(0, 1, 2, 3), line(0, 1, 2, 3)), null);
  assert.deepEqual(firstLoss(line(0, 1, 1, 1, 1), line(0, 1, 2, 3)), { cards: 2, yourMove: null, parMove: 2, keptUntil: 1 });
});

test('cards the deal opened with are nobody\u2019s progress', () => {
  assert.deepEqual(firstLoss(line(1, 1, 1, 2), line(1, 2)), { cards: 2, yourMove: 3, parMove: 1, keptUntil: 0 });
});
