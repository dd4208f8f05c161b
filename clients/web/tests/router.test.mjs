import { test } from 'node:test';
import assert from 'node:assert/strict';

import { codeFromInput, parseRoute, roomLink, viewHref } from '../js/router.js';

const at = (url) => {
  const parsed = new URL(url);
  return { pathname: parsed.pathname, hash: parsed.hash, search: parsed.search, origin: parsed.origin };
};

test('a room link, its hash twin in development, and the views after #', () => {
  assert.deepEqual(parseRoute(at('http://h/r/abcd2345')), { page: 'room', code: 'ABCD2345', watch: false, invite: null });
  assert.deepEqual(parseRoute(at('http://h/r/ABCD2345?by=Ada&v=freecell')).invite, { by: 'Ada', variant: 'freecell' });
  assert.equal(parseRoute(at('http://h/r/ABCD2345?watch=1')).watch, true);
  assert.equal(parseRoute(at('http://h/#/r/ABCD2345')).code, 'ABCD2345');
  assert.equal(parseRoute(at('http://h/')).page, 'landing');
  assert.equal(parseRoute(at('http://h/r/%3Cimg%3E')).page, 'landing', 'a code that is not one is not a room');
  const board = parseRoute(at('http://h/#/leaderboards/chinese-freecell?board=season&days=30'));
  assert.equal(board.page, 'leaderboards');
  assert.equal(board.variant, 'chinese-freecell');
  assert.equal(board.query.get('days'), '30');
  assert.equal(parseRoute(at('http://h/#/replay/g-1')).gameId, 'g-1');
  assert.equal(parseRoute(at('http://h/#/daily/freecell')).variant, 'freecell');
  assert.equal(parseRoute(at('http://h/#/history')).playerId, null);
  assert.equal(parseRoute(at('http://h/#/tournaments')).page, 'tournaments');
  const tournament = parseRoute(at('http://h/#/tournament/t_ab12?link=K3Y'));
  assert.equal(tournament.page, 'tournament');
  assert.equal(tournament.tournamentId, 't_ab12');
  assert.equal(tournament.query.get('link'), 'K3Y', 'a private tournament is entered by its link');
  assert.equal(parseRoute(at('http://h/#/tournament')).page, 'landing', 'no id, no tournament');
});

test('links keep only ?server= and are absolute for sharing', () => {
  const dev = at('http://127.0.0.1:8000/?server=ws://127.0.0.1:9/&x=1');
  assert.equal(roomLink(dev, 'ABCD'), 'http://127.0.0.1:8000/r/ABCD?server=ws%3A%2F%2F127.0.0.1%3A9%2F');
  assert.equal(roomLink(at('http://h/'), 'ABCD', { by: 'Ada B', variant: 'freecell' }), 'http://h/r/ABCD?by=Ada+B&v=freecell');
  assert.equal(viewHref(at('http://h/'), '/daily'), '/#/daily');
});

test('a typed code or a pasted link gives the code', () => {
  assert.equal(codeFromInput(' abcd-2345 '), 'ABCD2345');
  assert.equal(codeFromInput('http://127.0.0.1:8765/r/QWER7890'), 'QWER7890');
  assert.equal(codeFromInput('http://127.0.0.1:8765/r/QWER7890?watch=1'), 'QWER7890');
  assert.equal(codeFromInput('<script>'), null);
  assert.equal(codeFromInput(''), null);
});

test('a player page and a race review have their own views', () => {
  assert.deepEqual({ ...parseRoute(at('http://h/#/player/p-1')), query: null }, { page: 'player', playerId: 'p-1', query: null });
  assert.equal(parseRoute(at('http://h/#/player')).playerId, null);
  assert.equal(parseRoute(at('http://h/#/review/abcd2345')).code, 'ABCD2345');
  assert.equal(parseRoute(at('http://h/#/review/%3Cimg%3E')).page, 'landing', 'a code that is not one is no review');
});

test('a closed daily has a review too', () => {
  const route = parseRoute(at('http://h/#/review/daily/freecell/2026-11-22'));
  assert.deepEqual([route.page, route.code, route.variant, route.day], ['review', null, 'freecell', '2026-11-22']);
  assert.equal(parseRoute(at('http://h/#/review/daily/freecell/yesterday')).page, 'review', 'not a day: read as a room code');
});

test('the moderators\u2019 console is /mod (and #/mod in development); /modx is not it', () => {
  assert.equal(parseRoute(at('http://h/mod')).page, 'mod');
  assert.equal(parseRoute(at('http://h/mod/')).page, 'mod');
  assert.equal(parseRoute(at('http://h/#/mod')).page, 'mod');
  assert.equal(parseRoute(at('http://h/modx')).page, 'landing');
});
