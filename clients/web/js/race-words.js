/**
 * What a race says about itself, in words a player reads: whether it moves ratings (a race of one, or one with a
 * bot, rates nobody: docs/ratings.md's rule), a player's place among those who solved so far (a fewest-moves race
 * is decided only once nobody still racing can do better: `race_over` says when), and each progress row's status.
 * Pure functions of the room the server sent; the pages put them on screen.
 */

import { counted, formatDuration, ordinal } from './notation.js';
import { players } from './room-state.js';

const STATUS_WORDS = { waiting: 'waiting', playing: 'playing', won: 'solved', resigned: 'resigned', stuck: 'stuck', timeout: 'out of time' };

/** Whether the room's race moves ratings, as its options line says it. The server rates a finished ranked race on
 * a deal it drew with two or more players on one ladder (people and bots are apart): so a race of one, or one
 * person against a bot, rates nobody. Before the start, more may still join. */
export function ratingNote(room) {
  if (!room.options.ranked) return 'practice: not on the leaderboard, hints on';
  if (room.host_chose_deal) return 'on the deal\u2019s leaderboard, not rated (the host chose the deal)';
  if (room.options.max_players === 1) return 'on the leaderboard; a race of one rates nobody';
  const seated = players(room);
  const bots = seated.filter((member) => member.bot).length;
  const people = seated.length - bots;
  if (Math.max(bots, people) >= 2) return 'ranked and rated';
  const started = room.status === 'running' || room.status === 'finished';
  if (bots && people) return 'on the leaderboard; a race with a bot changes no rating';
  return started ? 'on the leaderboard; a race of one rates nobody' : 'ranked: rated once two or more race';
}

/** Better in the room's ranking: fewer moves then less time, or (speed) less time then fewer moves. */
function ahead(ranking, a, b) {
  const [first, second] = ranking === 'speed' ? ['time_ms', 'moves'] : ['moves', 'time_ms'];
  return (a[first] ?? 0) - (b[first] ?? 0) || (a[second] ?? 0) - (b[second] ?? 0);
}

/**
 * A solver's place among the race's solvers so far (1: best so far), from the progress rows; null when the player
 * has not solved. It is not the race's result: someone still racing may solve it better, until `race_over`.
 */
export function placeSoFar(room, playerId) {
  const solved = (room?.progress ?? []).filter((row) => row.status === 'won');
  const mine = solved.find((row) => row.player_id === playerId);
  if (!mine) return null;
  return 1 + solved.filter((row) => ahead(room.options.ranking, row, mine) < 0).length;
}

/** "Solved in 38 moves, best so far", "Solved in 1:02, 2nd so far": a solve in a race still running. */
export function solvedSoFarText(room, counts, place) {
  const measure = room.options.ranking === 'speed' ? formatDuration(counts.time_ms) : counted(counts.player_moves, 'move');
  return `Solved in ${measure}, ${place === 1 ? 'best' : ordinal(place)} so far`;
}

/** A progress row's status: "solved" while the race runs (it is decided at the end), then "won" for whoever ranked
 * first with a solve. `rank` is the standings' once the race is over. */
export function progressStatus(row, rank = null) {
  if (row.status === 'won' && rank === 1) return 'won';
  return STATUS_WORDS[row.status] ?? row.status;
}

/** "12/52 home · 1 move · solved": a progress row's counts. */
export function progressCounts(row, total, rank = null) {
  return `${row.cards_on_foundations}/${total} home \u00b7 ${counted(row.moves, 'move')} \u00b7 ${progressStatus(row, rank)}`;
}
