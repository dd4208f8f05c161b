/**
 * What the tournaments' pages and rooms say, as pure functions of what the server sent (docs/tournaments.md): time
 * left in words, a race's clocks (time left, berserk's half), an entrant's status in the table's phase, and an
 * operator's repeating schedule as one row per series.
 */

import { formatDuration } from './notation.js';

/** "in 24 min", "in 1 h 5 min", "in 40 s": what is left of an arena's time, said in the room and on its page. */
export function timeLeftWords(iso, now = Date.now()) {
  const left = Math.round((Date.parse(iso) - now) / 1000);
  if (Number.isNaN(left)) return '';
  if (left <= 0) return 'now';
  if (left < 60) return `in ${left} s`;
  const minutes = Math.round(left / 60);
  return minutes >= 60 ? `in ${Math.floor(minutes / 60)} h ${minutes % 60} min` : `in ${minutes} min`;
}

/** The clocks a race with a time limit shows beside the game's own: time left, and a berserker's half of it (a
 * solve after it scores as not solved: docs/tournaments.md). From the game's own elapsed time, as its timer. */
export function raceClocks(limitMs, elapsedMs, berserked) {
  const clocks = [];
  if (limitMs) clocks.push({ label: 'Left', text: formatDuration(Math.max(0, limitMs - elapsedMs)), over: elapsedMs >= limitMs });
  if (limitMs && berserked) {
    const half = limitMs / 2;
    clocks.push(elapsedMs < half
      ? { label: 'Berserk', text: `${formatDuration(half - elapsedMs)} left`, over: false }
      : { label: 'Berserk', text: 'time is up: a solve now earns no point', over: true });
  }
  return clocks;
}

const STATUS_WORDS = { active: 'active', paused: 'paused', withdrawn: 'withdrawn' };

/** Why you are paused, as the server says it (`paused_why`), and how to come back. */
export function pausedWords(why) {
  const back = 'you are not paired until you press Come back.';
  if (why === 'no_move') return `You are paused: you made no move in your last race (or left it before its start), so ${back}`;
  return `You are paused: ${back}`;
}

/** An entrant's status as the table says it: "entered" before the start (nobody plays yet), "racing" for yourself
 * in a race, "finished" once over (a withdrawal stays "withdrawn"). */
export function entrantStatus(status, phase, racing = false) {
  if (status === 'withdrawn') return STATUS_WORDS.withdrawn;
  if (phase === 'finished') return 'finished';
  if (phase === 'upcoming') return status === 'paused' ? 'paused' : 'entered';
  if (racing) return 'racing';
  return STATUS_WORDS[status] ?? status;
}

const SAME_SERIES = ['name', 'kind', 'variant', 'ranked', 'entry', 'cap'];

/**
 * Upcoming tournaments with the repeats of one schedule folded: `[{first, more, everyMs}]`, the next of each series
 * of consecutive tournaments alike (an hourly arena listed 26 times pushed the private tournament's form off the
 * page). `everyMs`: the step between their starts when it is regular, else null.
 */
export function upcomingSeries(items) {
  const series = [];
  for (const item of items) {
    const last = series.at(-1);
    if (last && SAME_SERIES.every((field) => last.first[field] === item[field])) {
      const step = Date.parse(item.starts_at) - Date.parse(last.latest.starts_at);
      last.everyMs = last.more === 0 || last.everyMs === step ? step : null;
      last.more += 1;
      last.latest = item;
    } else {
      series.push({ first: item, latest: item, more: 0, everyMs: null });
    }
  }
  return series.map(({ first, more, everyMs }) => ({ first, more, everyMs }));
}
