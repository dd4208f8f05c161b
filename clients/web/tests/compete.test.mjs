import { test } from 'node:test';
import assert from 'node:assert/strict';

import { deltaText, ratingText } from '../js/compete.js';

test('a rating is one number, marked while provisional; its change is signed with a real minus', () => {
  assert.equal(ratingText({ rating: 1512, provisional: true, races: 1 }), '1512?');
  assert.equal(ratingText({ rating: 1630, provisional: false, races: 20 }), '1630');
  assert.equal(ratingText(null), '\u2013');
  assert.deepEqual([deltaText(12), deltaText(-8), deltaText(0)], ['+12', '\u22128', '\u00b10']);
});
