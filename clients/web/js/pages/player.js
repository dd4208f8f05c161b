/**
 * A player's page (yours by default), linked from every name: per variant their games, wins and win %, best
 * and average moves (and over par on the dailies), best time, rating with its history chart, daily streaks.
 * Every number comes from the server, recomputed from stored results.
 */

import { dataTable, h, notice, replace } from '../dom.js';
import { formatDuration, variantName } from '../notation.js';
import { viewHref } from '../router.js';
import { PROVISIONAL_NOTE, loadStreak, ratingChart, ratingText } from '../compete.js';
import { lifecycle } from './daily.js';
import { reportButton } from '../moderation.js';

export function playerPage(main, { session, location, playerId }) {
  const title = h('h1', {}, 'Player');
  const body = h('div', { class: 'player-body' }, h('p', {}, 'Loading…'));
  main.replaceChildren(title, body);

  async function load() {
    try {
      const request = { type: 'get_player' };
      if (playerId) request.player_id = playerId;
      show(await session.ask(request));
    } catch (error) {
      replace(body, notice(error.code === 'unknown_player' ? 'There is no such player.' : error.message));
    }
  }

  function show(reply) {
    title.textContent = `${reply.name}${reply.bot ? ' (bot)' : ''}${reply.player_id === session.playerId ? ' (you)' : ''}`;
    title.after(...[reply.notice ? h('p', { class: 'mod-notice', role: 'note' }, reply.notice) : null,
      reportButton(session, { playerId: reply.player_id, name: reply.name })].filter(Boolean));
    const history = h('a', { href: viewHref(location, `/history/${encodeURIComponent(reply.player_id)}`) }, 'All games');
    if (!reply.variants.length) {
      replace(body, h('p', {}, 'No finished game yet. '), history);
      return;
    }
    const summary = dataTable('Per variant', ['Variant', 'Games', 'Won', 'Win %', 'Best moves', 'Average moves', 'Daily over par', 'Best time', 'Rating', 'Streak (best)'],
      reply.variants.map((row) => ({
        attributes: { dataset: { variant: row.variant } },
        cells: [variantName(row.variant), String(row.games), String(row.won), `${row.win_percent}`, numberOrDash(row.best_moves),
          numberOrDash(row.average_moves), row.average_over_par === null ? '\u2013' : `${row.average_over_par >= 0 ? '+' : ''}${row.average_over_par}`,
          row.best_time_ms === null ? '\u2013' : formatDuration(row.best_time_ms), h('span', { class: 'rating', dataset: { rating: row.rating?.rating ?? '' } }, ratingText(row.rating)),
          `${row.streak} (${row.best_streak})`],
      })));
    const cards = reply.variants.map((row) => {
      const streak = h('div', { class: 'player-streak' }, h('p', { class: 'hint' }, 'Loading the daily calendar\u2026'));
      loadStreak(session, streak, row.variant, reply.player_id); // practice and played days show too, not only wins
      return h('section', { class: 'card-panel player-variant', 'aria-label': variantName(row.variant), dataset: { variant: row.variant } },
        h('h2', {}, variantName(row.variant)),
        h('div', { class: 'player-variant-grid' },
          h('div', {}, h('h3', {}, `Rating ${ratingText(row.rating)}`), ratingChart(row.history),
            row.history.length ? h('p', { class: 'hint' }, `${row.history.length} rated ${row.history.length === 1 ? 'race' : 'races'}: `
              + `${row.history[0].rating - row.history[0].delta} \u2192 ${row.history.at(-1).rating}`) : null),
          h('div', {}, h('h3', {}, 'Daily streak'), streak)));
    });
    const provisional = reply.variants.some((row) => row.rating?.provisional);
    const tournaments = h('section', { class: 'card-panel board-table', 'aria-labelledby': 'player-tournaments' },
      h('h2', { id: 'player-tournaments' }, 'Tournaments'), h('p', {}, 'Loading…'));
    loadTournaments(tournaments, reply.player_id);
    replace(body, h('section', { class: 'card-panel board-table', 'aria-label': 'Summary' }, summary,
      provisional ? h('p', { class: 'hint' }, PROVISIONAL_NOTE) : null, h('p', {}, history)), cards, tournaments);
  }

  /** The tournaments the player entered, each with their place in its table (finished ones: the result). */
  async function loadTournaments(holder, id) {
    try {
      const reply = await session.ask({ type: 'get_tournaments', player_id: id });
      const entered = [...reply.running, ...reply.finished, ...reply.upcoming];
      const places = await Promise.all(entered.map((item) => session.ask({ type: 'get_tournament', tournament_id: item.tournament_id, around: id })
        .then((view) => view.me ?? view.standings.find((row) => row.player_id === id) ?? null).catch(() => null)));
      holder.lastChild.replaceWith(entered.length ? dataTable('Tournaments entered', ['Tournament', 'Phase', 'Place', 'Points'], entered.map((item, index) => ({
        attributes: { dataset: { tournamentId: item.tournament_id } },
        cells: [h('a', { href: viewHref(location, `/tournament/${encodeURIComponent(item.tournament_id)}`) }, item.name), item.phase,
          places[index] ? `${places[index].rank} of ${item.entrants}` : '\u2013', places[index] ? String(places[index].points) : '\u2013'],
      }))) : h('p', {}, 'No tournament entered yet.'));
    } catch (error) {
      holder.lastChild.replaceWith(notice(error.message));
    }
  }

  return lifecycle(session, load);
}

function numberOrDash(value) {
  return value === null || value === undefined ? '\u2013' : String(value);
}
