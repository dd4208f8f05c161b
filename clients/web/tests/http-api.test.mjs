import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readPath } from '../js/http-api.js';

test('a page\u2019s reads have their HTTP routes, for a first visit without a socket', () => {
  assert.equal(readPath({ type: 'get_tournaments' }), '/api/tournaments');
  assert.equal(readPath({ type: 'get_tournament', tournament_id: 't_1', around: undefined }), '/api/tournaments/t_1');
  assert.equal(readPath({ type: 'get_leaderboard', variant: 'freecell', board: 'daily', bots: false, limit: 25 }),
    '/api/leaderboards/freecell/daily?limit=25', 'false flags are left out');
  assert.equal(readPath({ type: 'get_leaderboard', variant: 'freecell', board: 'deal', seed: '7654041082873553397', bots: true, limit: 25 }),
    '/api/leaderboards/freecell/deal/7654041082873553397?bots=true&limit=25');
  assert.equal(readPath({ type: 'get_season', variant: 'chinese-freecell', days: 30, limit: 25 }),
    '/api/leaderboards/chinese-freecell/season?days=30&limit=25');
  assert.equal(readPath({ type: 'get_ratings', variant: 'freecell', bots: false, limit: 25 }), '/api/ratings/freecell?limit=25');
  assert.equal(readPath({ type: 'get_daily', variant: 'freecell' }), '/api/daily/freecell');
  assert.equal(readPath({ type: 'get_streak', variant: 'freecell' }), null, 'your streak needs you');
  assert.equal(readPath({ type: 'play_daily', variant: 'freecell' }), null, 'no route: it needs a player');
});
