import { test } from 'node:test';
import assert from 'node:assert/strict';

import { thinkScale } from '../js/think-chart.js';

test('one long pause does not flatten the rest: the bars end at the 90th percentile, the longer ones said', () => {
  const times = [3000, ...Array(19).fill(2000), 24700];
  assert.deepEqual(thinkScale(times), { top: 2000, capped: 2, longest: 24700 });
});

test('a steady row or a mild spread is scaled to its longest pause, nothing capped', () => {
  assert.deepEqual(thinkScale(Array(10).fill(2000)), { top: 2000, capped: 0, longest: 2000 });
  assert.deepEqual(thinkScale([500, 900, 1200, 1500]), { top: 1500, capped: 0, longest: 1500 });
  assert.deepEqual(thinkScale([0, 0]), { top: 1, capped: 0, longest: 1 });
});
