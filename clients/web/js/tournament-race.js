/**
 * A tournament's race as its room shows it (docs/tournaments.md): which tournament, your place and points in it,
 * berserk in the countdown, what this race earned once the table counts it, and what comes next (the next race
 * forming, the arena's time up, the tournament over). The server says a room is a tournament's race only with
 * `tournament_race`, sent once: `TournamentRaces` keeps it (and a berserk chosen) in the browser, so a reload of
 * the room still knows.
 */

import { h, replace } from './dom.js';
import { counted, ordinal } from './notation.js';
import { timeLeftWords } from './tournament-words.js';
import { viewHref } from './router.js';

const KEY = 'freecell-arena:tournament-races';
const KEEP = 20; // the latest races: one tournament's evening
const REFRESH_MS = 2500;

export class TournamentRaces {
  constructor(storage) {
    this.storage = storage;
  }

  all() {
    try {
      const saved = JSON.parse(this.storage?.getItem(KEY) ?? '[]');
      return Array.isArray(saved) ? saved : [];
    } catch {
      return [];
    }
  }

  /** The `tournament_race` of room `code` (with `berserked` once chosen), or null: not a tournament's race. */
  of(code) {
    return this.all().find((race) => race.code === code) ?? null;
  }

  remember(message, changes = {}) {
    const race = { ...(this.of(message.code) ?? {}), ...message, ...changes };
    const races = [race, ...this.all().filter((item) => item.code !== message.code)].slice(0, KEEP);
    try {
      this.storage?.setItem(KEY, JSON.stringify(races));
    } catch {
      // storage full or refused: this page still knows until it reloads
    }
    return race;
  }
}

/**
 * The room's tournament panel: `race` is the remembered `tournament_race`; `roomStatus()` the room's status now.
 * Reads the tournament (your row, its phase) every few seconds while the room is shown.
 */
export function tournamentRoomPanel(session, location, race, roomStatus) {
  const element = h('div', { class: 'card-panel tournament-race', dataset: { tournamentId: race.tournament_id } });
  let view = null;
  let racesBefore = null; // your races in the table while this one runs: the next count is this race's
  let berserked = Boolean(race.berserked);
  const link = () => viewHref(location, `/tournament/${encodeURIComponent(race.tournament_id)}`);

  async function berserk() {
    try {
      await session.ask({ type: 'berserk', tournament_id: race.tournament_id });
      berserked = true;
      session.tournamentRaces.remember(race, { berserked: true });
      session.say('Berserk: half the time; a solve within it earns a point more.', 'race');
      render();
    } catch (error) {
      session.say(error.message, 'error');
    }
  }

  function standingWords() {
    const me = view?.me;
    if (!me) return null;
    return `you are ${ordinal(me.rank)} of ${view.tournament.entrants} with ${counted(me.points, 'point')}`;
  }

  /** What this race earned, once the table counts it (your races go one up). */
  function thisRace(status) {
    if (status !== 'finished' || racesBefore === null || !view?.me) return null;
    if (view.me.races <= racesBefore) return h('p', { class: 'race-points' }, 'Counting this race\u2019s points\u2026');
    const points = view.me.recent.at(-1) ?? 0;
    return h('p', { class: 'race-points', dataset: { points } }, h('strong', {}, points ? `This race: +${counted(points, 'point')}.` : 'This race earned no point.'));
  }

  /** After this race: the tournament over, the arena's time up, or the next race forming. */
  function whatNext(status) {
    if (!view) return null;
    const { tournament } = view;
    if (tournament.phase === 'finished') {
      return h('p', { class: 'tournament-next', role: 'status' }, `${tournament.name} is over${view.me ? `: you finished ${ordinal(view.me.rank)} of ${tournament.entrants} with ${counted(view.me.points, 'point')}` : ''}. `,
        h('a', { href: link() }, 'See the podium'));
    }
    if (status !== 'finished') return null;
    const next = session.tournamentRace;
    if (next && next.code !== race.code && next.tournament_id === race.tournament_id) return null; // formed: said above
    if (Date.parse(tournament.ends_at) <= Date.now() + session.clockOffsetMs) {
      return h('p', { class: 'tournament-next', role: 'status' }, 'The arena\u2019s time is up: no new race. The table is final once every race is over.');
    }
    if (view.me?.status === 'paused') {
      const why = view.me.paused_why === 'no_move' ? 'You made no move in your last race, so you are paused' : 'You are paused';
      return h('p', { class: 'tournament-next', role: 'status' }, `${why}: no next race until you come back on the tournament page. `, h('a', { href: link() }, 'Tournament page'));
    }
    return h('p', { class: 'tournament-next', role: 'status' }, 'Your next race forms as soon as another entrant is free; its room opens by itself.');
  }

  function render() {
    const status = roomStatus();
    const running = view?.tournament.phase === 'running' ? ` \u00b7 ends ${timeLeftWords(view.tournament.ends_at, Date.now() + session.clockOffsetMs)}` : '';
    replace(element,
      h('p', {}, view ? h('strong', {}, view.tournament.name) : null, standingWords() ? `: ${standingWords()}` : '', running, view ? ' \u00b7 ' : null,
        h('a', { href: link() }, 'Tournament page')),
      berserked && status !== 'finished' ? h('p', {}, h('span', { class: 'badge berserk' }, 'berserk'), ' half the time; a solve within it earns a point more') : null,
      race.berserk_allowed && status === 'countdown' && !berserked
        ? h('p', {}, h('button', { type: 'button', onclick: berserk }, 'Berserk (half the time, +1 if solved)')) : null,
      thisRace(status), whatNext(status));
  }

  async function load() {
    try {
      view = await session.read({ type: 'get_tournament', tournament_id: race.tournament_id, around: session.playerId ?? undefined });
      if (roomStatus() !== 'finished' && view.me) racesBefore = view.me.races;
      render();
    } catch {
      // the panel keeps what it showed; the next refresh tries again
    }
  }

  render();
  load();
  const timer = setInterval(load, REFRESH_MS);
  return { element, update: render, refresh: load, berserked: () => berserked, destroy: () => clearInterval(timer) };
}
