/**
 * Leaderboards: per variant, the daily board of a day, the season table (7 or 30 closed days) and a deal's
 * board; the top of each, the next pages, or the rows around you; the bots' boards apart behind a toggle.
 */

import { dataTable, h, notice, replace } from '../dom.js';
import { VARIANTS, variantName } from '../notation.js';
import { viewHref } from '../router.js';
import { wholeNumber } from '../connection.js';
import { boardTable, lifecycle } from './daily.js';
import { playerLink, ratingText } from '../compete.js';

const BOARDS = [['daily', 'Daily'], ['season', 'Season'], ['deal', 'A deal'], ['rating', 'Rating']];

function href(location, variant, query) {
  const search = new URLSearchParams(Object.entries(query).filter(([, value]) => value !== null && value !== undefined && value !== ''));
  return viewHref(location, `/leaderboards/${variant}${search.size ? `?${search}` : ''}`);
}

export function leaderboardsPage(main, { session, location, navigate, variant, query }) {
  const board = BOARDS.some(([id]) => id === query.get('board')) ? query.get('board') : 'daily';
  const bots = query.get('bots') === '1';
  const around = query.get('around') === '1';
  const day = query.get('day') ?? '';
  const days = query.get('days') === '30' ? 30 : 7;
  const seed = query.get('seed') ?? '';
  const link = (changes) => href(location, changes.variant ?? variant, { board, bots: bots ? '1' : null, day, days: board === 'season' ? days : null, seed, around: around ? '1' : null, ...changes });

  const results = h('div', { class: 'board-table' }, h('p', {}, 'Loading…'));
  const more = h('div', {});
  const dayInput = h('input', { type: 'date', name: 'day', value: day });
  const seedInput = h('input', { type: 'text', inputmode: 'numeric', name: 'seed', value: seed });
  const daysSelect = h('select', { name: 'days' }, [7, 30].map((count) => h('option', { value: String(count), selected: count === days }, `Last ${count} days`)));
  const controls = h('form', {
    class: 'toolbar',
    onsubmit: (event) => {
      event.preventDefault();
      navigate(link({ day: dayInput.value, seed: seedInput.value.trim(), days: daysSelect.value, around: null }));
    },
  },
  board === 'daily' ? h('label', { class: 'field' }, h('span', { class: 'field-label' }, 'Day (UTC)'), dayInput) : null,
  board === 'season' ? h('label', { class: 'field' }, h('span', { class: 'field-label' }, 'Season'), daysSelect) : null,
  board === 'deal' ? h('label', { class: 'field' }, h('span', { class: 'field-label' }, variant === 'freecell' ? 'Deal number' : 'Seed'), seedInput) : null,
  board === 'rating' ? null : h('button', { type: 'submit' }, 'Show'),
  h('label', { class: 'check' }, h('input', { type: 'checkbox', checked: bots, onchange: (event) => navigate(link({ bots: event.target.checked ? '1' : null, around: null })) }), 'Bots\u2019 board'),
  around ? h('a', { href: link({ around: null }) }, 'Top of the board') : session.anonymous ? null : h('a', { href: link({ around: '1' }) }, 'Around me'));

  main.replaceChildren(h('h1', {}, `Leaderboards \u00b7 ${variantName(variant)}`),
    h('nav', { class: 'tabs', 'aria-label': 'Variants' }, VARIANTS.map((item) => h('a', { href: link({ variant: item.id }), 'aria-current': item.id === variant ? 'page' : null }, item.name))),
    h('nav', { class: 'tabs', 'aria-label': 'Boards' }, BOARDS.map(([id, title]) => h('a', { href: link({ board: id, around: null }), 'aria-current': id === board ? 'page' : null }, title))),
    controls,
    h('section', { class: 'card-panel', 'aria-label': 'Results' }, results, more),
    h('p', {}, h('a', { href: viewHref(location, '/history') }, 'Your games'), ' \u00b7 ', h('a', { href: viewHref(location, '/daily') }, 'Daily deals')));

  function request(cursor = null) {
    if (board === 'rating') return around ? { type: 'get_ratings', variant, bots, limit: 3, around: session.playerId } : { type: 'get_ratings', variant, bots, limit: 25 };
    const base = { variant, bots, limit: around ? 11 : 25 };
    if (cursor) base.cursor = cursor;
    else if (around) base.around = session.playerId;
    if (board === 'season') return { type: 'get_season', days, ...base };
    const message = { type: 'get_leaderboard', board, ...base };
    if (board === 'daily' && day) message.day = day;
    if (board === 'deal') message.seed = wholeNumber(seed);
    return message;
  }

  async function load(cursor = null) {
    if (board === 'deal' && wholeNumber(seed) === null) {
      replace(results, h('p', {}, variant === 'freecell' ? 'Type a deal number to see its board.' : 'Type a seed to see its board.'));
      return;
    }
    try {
      const reply = await session.read(request(cursor));
      show(reply, Boolean(cursor));
    } catch (error) {
      if (error.code === 'unknown_daily') { // an empty day, not a failure: said plainly, with the way to a daily
        replace(results, h('p', { class: 'empty-board' }, `No ${variantName(variant)} daily was dealt for ${dayInput.value || 'today'}. `,
          h('a', { href: viewHref(location, '/daily') }, 'Daily deals')));
        replace(more);
        return;
      }
      replace(results, notice(error.code === 'not_on_board' ? 'You are not on this board yet: win a ranked game of it first.' : error.message,
        around ? h('a', { href: link({ around: null }) }, 'See the top') : null));
      replace(more);
    }
  }

  function show(reply, appended) {
    if (reply.day && !dayInput.value) dayInput.value = reply.day; // the day shown, when the server chose it
    if (reply.type === 'ratings') {
      replace(results, ...ratingTables(reply));
      replace(more);
      return;
    }
    const table = reply.type === 'season' ? seasonTable(reply) : boardTable(reply, session, location);
    const heading = reply.type === 'season'
      ? h('p', {}, `${reply.total} players over the last ${reply.days} closed days${reply.through ? ` (through ${reply.through})` : ''}${reply.bots ? ', bots' : ''}.`)
      : h('p', {}, `${reply.total} on the board${reply.day ? ` of ${reply.day}` : ''}${reply.seed !== null && reply.seed !== undefined ? ` \u00b7 ${variant === 'freecell' ? 'deal #' : 'seed '}${reply.seed}` : ''}${reply.par !== null && reply.par !== undefined ? ` \u00b7 par ${reply.par}` : ''}${reply.bots ? ' \u00b7 bots' : ''}.`);
    if (appended) {
      const body = table.querySelector?.('tbody');
      results.querySelector('tbody')?.append(...(body ? body.children : []));
    } else {
      replace(results, heading, table);
    }
    replace(more, reply.next_cursor ? h('button', { type: 'button', onclick: () => load(reply.next_cursor) }, 'Next page') : null);
  }

  function seasonTable(reply) {
    if (!reply.standings.length) return h('p', {}, 'No one has won a daily of this season yet.');
    return dataTable('Season', ['Rank', 'Player', 'Days won', 'Moves over par', 'Average rank'], reply.standings.map((row) => ({
      attributes: { class: row.player_id === session.playerId ? 'me' : '', dataset: { playerId: row.player_id, rank: row.rank } },
      cells: [String(row.rank), playerLink(location, row.player_id, row.name, row.claimed),
        String(row.wins), String(row.moves_over_par), row.average_rank.toFixed(2)],
    })));
  }

  /** The rating board: the top, and (asked with "Around me") your place with the players just above and below. */
  function ratingTables(reply) {
    const table = (caption, rows) => dataTable(caption, ['Place', 'Player', 'Rating', 'Rated races'], rows.map((row) => ({
      attributes: { class: row.player_id === session.playerId ? 'me' : '', dataset: { playerId: row.player_id, rating: row.rating.rating } },
      cells: [String(row.position), playerLink(location, row.player_id, row.name), ratingText(row.rating), String(row.rating.races)],
    })));
    const note = h('p', {}, `${reply.bots ? 'Bots' : 'Players'} ranked by their rating’s conservative estimate; a “?” marks a rating still provisional. Rated races: ranked, two or more players, a deal the server drew.`);
    if (around) {
      return [note, reply.around.length ? table('Around you', reply.around) : h('p', {}, 'You have no rating here yet: finish a rated race first.')];
    }
    return [note, reply.top.length ? table('Rating', reply.top) : h('p', {}, 'No one is rated in this variant yet.')];
  }

  return lifecycle(session, () => load());
}
