import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  VARIANTS, cardFace, cardName, counted, countsText, formatDuration, moveNotation, parsePileId, pileId, pileLabel,
  refusalWords, toFoundation,
} from '../js/notation.js';
import { engineGames } from './engine-games.mjs';

test('card names read as the accessibility tests expect', () => {
  assert.equal(cardName('7H'), '7 of hearts');
  assert.equal(cardName('AS'), 'Ace of spades');
  assert.equal(cardName('KD'), 'King of diamonds');
  assert.equal(cardName('TC'), '10 of clubs');
  assert.equal(cardName('JC'), 'Jack of clubs');
  assert.equal(cardName('QH'), 'Queen of hearts');
  assert.equal(cardName(null), 'face-down card');
  assert.throws(() => cardName('1H'));
  assert.throws(() => cardName('<img src=x>'));
});

test('every card of the deck has a distinct name and a face', () => {
  const names = new Set();
  for (const rank of 'A23456789TJQK') {
    for (const suit of 'CDHS') {
      names.add(cardName(rank + suit));
      const face = cardFace(rank + suit);
      assert.equal(face.colour, 'DH'.includes(suit) ? 'red' : 'black');
    }
  }
  assert.equal(names.size, 52);
  assert.equal(cardFace('TD').rank, '10');
});

test('pile ids and labels are 1-based like the server notation', () => {
  assert.equal(pileId('tableau', 2), 't3');
  assert.equal(pileId('cell', 0), 'c1');
  assert.equal(pileId('foundation', 15), 'f16');
  assert.deepEqual(parsePileId('t14'), { zone: 'tableau', index: 13 });
  assert.equal(parsePileId('t0'), null);
  assert.equal(parsePileId('x1'), null);
  assert.equal(pileLabel('tableau', 0), 'Column 1');
  assert.equal(pileLabel('cell', 1), 'Free cell 2');
  assert.equal(pileLabel('foundation', 2), 'Foundation 3');
});

test('moves between piles spell the engine generic notation (foundations unnamed)', () => {
  let checked = 0;
  for (const record of engineGames(40)) {
    for (const turn of record.turns.filter((entry) => entry.generic)) {
      const expected = turn.to.startsWith('f') ? turn.generic.replace(/-f\d+/, '-f') : turn.generic;
      assert.equal(moveNotation(turn.from, turn.to, turn.count), expected, `${record.variant} ${turn.action}`);
      checked += 1;
    }
  }
  assert.ok(checked > 100);
  assert.equal(toFoundation('c2'), 'c2-f');
  assert.throws(() => moveNotation('f1', 't2'));
  assert.throws(() => moveNotation('t1', 't2', 0));
});

test('the five variants and durations', () => {
  assert.deepEqual(VARIANTS.map((variant) => variant.id),
    ['freecell', 'chinese-freecell', 'freecell-four-deck', 'cell-eleven', 'freecell-three-deck']);
  assert.equal(formatDuration(0), '0:00');
  assert.equal(formatDuration(61500), '1:01');
  assert.equal(formatDuration(3723000), '1:02:03');
});

test('counts say one move and one card in the singular', () => {
  assert.equal(counted(1, 'move'), '1 move');
  assert.equal(counted(0, 'move'), '0 moves');
  assert.equal(countsText(1, 1, 42_000), '1 move, 1 card home, 0:42');
  assert.equal(countsText(12, 52, 61_000), '12 moves, 52 cards home, 1:01');
});

test('a refused move is told in words, as accepted moves are', () => {
  assert.equal(refusalWords({ move: 't1-t2', code: 'illegal_move', message: '6S cannot go on 9C in column 2: it needs a Eight' }),
    'Not played: 6 of spades cannot go on 9 of clubs in column 2: it needs a Eight');
  assert.equal(refusalWords({ move: 'zz', code: 'bad_notation', message: 'not a move of FreeCell' }),
    '\u201czz\u201d is not a move: not a move of FreeCell', 'typed text stays as typed');
  assert.equal(refusalWords({ move: 't1-c1', code: 'game_not_running', message: 'the game is over (AS, TD untouched)' }),
    'Not played: the game is over (AS, TD untouched)', 'only the engine\u2019s reasons name cards');
});
