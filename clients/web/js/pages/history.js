/** A player's finished games, newest first (yours by default): the result, the moves, a race's place and rating
 * change first (what a phone shows without scrolling), then the deal, the board, the time and the replay. */

import { dataTable, formatTime, h, notice, replace } from '../dom.js';
import { deltaText, formatDuration, ordinal, shortSeed, variantName } from '../notation.js';
import { viewHref } from '../router.js';
import { lifecycle } from './daily.js';

export function historyPage(main, { session, location, playerId }) {
  const title = h('h1', {}, 'Games');
  const results = h('div', { class: 'board-table' }, h('p', {}, 'Loading…'));
  const more = h('div', {});
  main.replaceChildren(title, h('section', { class: 'card-panel history board-table' }, results, more),
    h('p', {}, h('a', { href: viewHref(location, '/leaderboards/freecell') }, 'Leaderboards')));

  async function load(cursor = null) {
    const request = { type: 'get_history', limit: 20 };
    if (playerId) request.player_id = playerId;
    if (cursor) request.cursor = cursor;
    try {
      const reply = await session.ask(request);
      title.textContent = `Games of ${reply.name}${reply.bot ? ' (bot)' : ''}${reply.claimed ? ' \u2713' : ''}`;
      const table = reply.games.length ? dataTable('Games', ['Finished', 'Variant', 'Result', 'Moves', 'Place', 'Rating', 'Deal', 'Board', 'Time', 'Cards home', 'Replay'], reply.games.map((game) => ({
        attributes: { dataset: { gameId: game.game_id, outcome: game.outcome, place: game.place ?? '', ratingDelta: game.rating_delta ?? '' } },
        cells: [formatTime(game.finished_at), variantName(game.variant), game.outcome, String(game.player_moves),
          game.place ? `${ordinal(game.place)} of ${game.players}` : '\u2013',
          game.rating_delta === null || game.rating_delta === undefined ? '\u2013'
            : h('span', { class: `rating-change ${game.rating_delta >= 0 ? 'up' : 'down'}` }, deltaText(game.rating_delta)),
          game.seed === null ? 'secret for now' : h('span', { title: String(game.seed) }, game.variant === 'freecell' ? `#${game.seed}` : shortSeed(game.seed)),
          game.board === 'daily' ? `daily ${game.day}` : game.board === 'deal' ? 'deal' : 'unranked',
          formatDuration(game.time_ms), String(game.cards_on_foundations),
          h('a', { href: viewHref(location, `/replay/${encodeURIComponent(game.game_id)}`), 'aria-label': `Replay of game ${game.game_id}` }, 'Replay')],
      }))) : h('p', {}, 'No finished game yet.');
      if (cursor) results.querySelector('tbody')?.append(...table.querySelector('tbody').children);
      else replace(results, table);
      replace(more, reply.next_cursor ? h('button', { type: 'button', onclick: () => load(reply.next_cursor) }, 'Next page') : null);
    } catch (error) {
      replace(results, notice(error.code === 'unknown_player' ? 'There is no such player.' : error.message));
    }
  }

  return lifecycle(session, () => load());
}
