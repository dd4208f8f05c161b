import { test } from 'node:test';
import assert from 'node:assert/strict';
import { entrantStatus, pausedWords, raceClocks, timeLeftWords, upcomingSeries } from '../js/tournament-words.js';
import { TournamentRaces } from '../js/tournament-race.js';

test('an arena\u2019s time left and a race\u2019s clocks, berserk\u2019s half included', () => {
  const now = Date.parse('2026-12-01T04:00:00Z');
  assert.equal(timeLeftWords('2026-12-01T04:16:00Z', now), 'in 16 min');
  assert.equal(timeLeftWords('2026-12-01T05:30:00Z', now), 'in 1 h 30 min');
  assert.equal(timeLeftWords('2026-12-01T04:00:40Z', now), 'in 40 s');
  assert.equal(timeLeftWords('2026-12-01T03:00:00Z', now), 'now');
  assert.deepEqual(raceClocks(120000, 61000, false), [{ label: 'Left', text: '0:59', over: false }]);
  assert.deepEqual(raceClocks(120000, 50000, true)[1], { label: 'Berserk', text: '0:10 left', over: false });
  assert.deepEqual(raceClocks(120000, 61000, true)[1], { label: 'Berserk', text: 'time is up: a solve now earns no point', over: true });
  assert.deepEqual(raceClocks(null, 61000, true), [], 'no time limit: the game\u2019s own timer says it all');
});

test('an entrant is "entered" before the start, never "playing" while waiting', () => {
  assert.equal(entrantStatus('active', 'upcoming'), 'entered');
  assert.equal(entrantStatus('active', 'running'), 'active');
  assert.equal(entrantStatus('active', 'running', true), 'racing');
  assert.equal(entrantStatus('paused', 'running'), 'paused');
  assert.equal(entrantStatus('active', 'finished'), 'finished');
  assert.equal(entrantStatus('withdrawn', 'finished'), 'withdrawn');
});

test('an hourly schedule is one row with its repeats counted', () => {
  const hourly = (hour, name = 'Hourly Arena') => ({ name, kind: 'arena', variant: 'freecell', ranked: true, entry: 'anyone', cap: 100,
    starts_at: `2026-12-01T${String(hour).padStart(2, '0')}:00:00Z`, tournament_id: `t${hour}` });
  const items = [hourly(1), hourly(2), hourly(3), hourly(4, 'Friends'), hourly(5), hourly(7)];
  const series = upcomingSeries(items);
  assert.deepEqual(series.map(({ first, more, everyMs }) => [first.tournament_id, more, everyMs]),
    [['t1', 2, 3600000], ['t4', 0, null], ['t5', 1, 7200000]]);
  assert.deepEqual(upcomingSeries([hourly(1), hourly(2), hourly(4)]).map(({ more, everyMs }) => [more, everyMs]), [[2, null]],
    'irregular steps: counted, no "every"');
});

test('a tournament\u2019s races are remembered in the browser, berserk included', () => {
  const kept = new Map();
  const storage = { getItem: (key) => kept.get(key) ?? null, setItem: (key, value) => kept.set(key, value) };
  const races = new TournamentRaces(storage);
  races.remember({ tournament_id: 't', code: 'AAAA', starts_at: 'x', round: 1, berserk_allowed: true });
  races.remember({ tournament_id: 't', code: 'AAAA' }, { berserked: true });
  assert.equal(new TournamentRaces(storage).of('AAAA').berserked, true, 'a reload still knows');
  assert.equal(new TournamentRaces(storage).of('AAAA').berserk_allowed, true);
  assert.equal(races.of('BBBB'), null);
  for (let index = 0; index < 30; index += 1) races.remember({ tournament_id: 't', code: `R${index}` });
  assert.equal(races.all().length, 20, 'only the latest are kept');
  assert.equal(new TournamentRaces({ getItem: () => '{broken' }).of('AAAA'), null);
});

test('a paused entrant is told why, as the server says it', () => {
  assert.equal(pausedWords('no_move'), 'You are paused: you made no move in your last race (or left it before its start), so you are not paired until you press Come back.');
  assert.equal(pausedWords('chosen'), 'You are paused: you are not paired until you press Come back.');
  assert.equal(pausedWords(null), 'You are paused: you are not paired until you press Come back.');
});
