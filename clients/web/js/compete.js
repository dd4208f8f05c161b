/**
 * What carries a player from one race or day to the next, as several pages show it: links to a player's page,
 * a rating as one number (a "?" while provisional) and its change, the rating-history chart (SVG), the daily
 * streak with its month calendar, and the Share button (the server's spoiler-free text; the Clipboard API,
 * with the text shown to copy by hand when the browser refuses).
 */

import { boardName, h, notice, replace } from './dom.js';
import { deltaText, ratingText } from './notation.js';
import { viewHref } from './router.js';

export function playerHref(location, playerId) {
  return viewHref(location, `/player/${encodeURIComponent(playerId)}`);
}

/** A name linking to the player's page, with the claimed mark of a saved player's name (when the row says). */
export function playerLink(location, playerId, name, claimed = false) {
  return boardName({ name, claimed }, playerHref(location, playerId), { class: 'player-link' });
}

export { deltaText, ratingText }; // the formatting lives with the rest (notation.js); pages take it from here too

/** What the "?" after a rating means, said wherever one shows. */
export const PROVISIONAL_NOTE = 'A “?” after a rating: still provisional, until about ten rated races have settled it.';

const SVG = 'http://www.w3.org/2000/svg';

export function svg(tag, attributes = {}, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  for (const child of children) element.append(typeof child === 'string' ? document.createTextNode(child) : child);
  return element;
}

/** The rating after each rated race, as a small line chart; its title and each point's say the numbers. */
export function ratingChart(history, { width = 320, height = 96 } = {}) {
  if (!history.length) return h('p', { class: 'hint' }, 'No rated race yet.');
  const values = [history[0].rating - history[0].delta, ...history.map((point) => point.rating)];
  const low = Math.min(...values) - 10;
  const high = Math.max(...values) + 10;
  const pad = 6;
  const x = (index) => pad + (index * (width - 2 * pad)) / Math.max(1, values.length - 1);
  const y = (value) => pad + ((high - value) * (height - 2 * pad)) / (high - low);
  const line = values.map((value, index) => `${index ? 'L' : 'M'}${x(index).toFixed(1)},${y(value).toFixed(1)}`).join(' ');
  const last = values.at(-1);
  return svg('svg', { class: 'rating-chart', viewBox: `0 0 ${width} ${height}`, width, height, role: 'img',
    'aria-label': `Rating history: from ${values[0]} to ${last} over ${history.length} rated races` },
  svg('title', {}, `Rating from ${values[0]} to ${last}`),
  svg('line', { x1: pad, x2: width - pad, y1: y(1500), y2: y(1500), class: 'rating-base' }),
  svg('path', { d: line, class: 'rating-line' }),
  ...values.map((value, index) => svg('circle', { cx: x(index), cy: y(value), r: 2.5, class: 'rating-point' },
    svg('title', {}, index ? `${value} (${deltaText(history[index - 1].delta)})` : `${value} before the first race`))));
}

const MARK_WORDS = { won: 'won', played: 'played, no ranked win', missed: 'missed', ahead: 'not yet', none: 'nothing to play' }; // a practice win is "played"

/** A daily streak: current and best, and the month's calendar (Monday first), each day marked. */
export function streakPanel(reply) {
  const first = new Date(`${reply.days[0].day}T00:00:00Z`);
  const blanks = (first.getUTCDay() + 6) % 7;
  const month = first.toLocaleString('en', { month: 'long', year: 'numeric', timeZone: 'UTC' });
  return h('div', { class: 'streak', dataset: { current: reply.current, best: reply.best } },
    h('p', { class: 'streak-numbers' },
      h('strong', {}, `${reply.current}-day streak`), ` \u00b7 best ${reply.best}`),
    h('table', { class: 'calendar', 'aria-label': `Daily calendar of ${month}` },
      h('caption', {}, month),
      h('thead', {}, h('tr', {}, ['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'].map((day) => h('th', { scope: 'col' }, day)))),
      h('tbody', {}, weeks(blanks, reply.days).map((week) => h('tr', {}, week.map((entry) => (entry
        ? h('td', { class: `day ${entry.mark}`, dataset: { day: entry.day, mark: entry.mark }, title: `${entry.day}: ${MARK_WORDS[entry.mark]}` },
          h('span', { 'aria-hidden': 'true' }, String(Number(entry.day.slice(8)))), h('span', { class: 'visually-hidden' }, `${entry.day} ${MARK_WORDS[entry.mark]}`))
        : h('td', {}))))))),
    h('p', { class: 'calendar-key hint' }, h('span', { class: 'day won' }, 'won (ranked)'), ' ', h('span', { class: 'day played' }, 'played (practice too)'), ' ',
      h('span', { class: 'day missed' }, 'missed'), ' ', h('span', { class: 'day none' }, 'nothing to play')));
}

function weeks(blanks, days) {
  const cells = [...Array(blanks).fill(null), ...days];
  const rows = [];
  for (let start = 0; start < cells.length; start += 7) rows.push(cells.slice(start, start + 7));
  return rows;
}

/** Loads a player's streak in a variant into `holder` (nothing shown for a server without that daily). */
export async function loadStreak(session, holder, variant, playerId = null) {
  try {
    const request = { type: 'get_streak', variant };
    if (playerId) request.player_id = playerId;
    replace(holder, streakPanel(await session.ask(request)));
  } catch (error) {
    replace(holder, error.code === 'unknown_player' ? null : notice(error.message));
  }
}

/**
 * A "Share" button for a finished game: asks the server for the spoiler-free text, copies it, and shows it
 * (selected, to copy by hand, when the Clipboard API is refused: an http page, a denied permission). The server
 * words it, a practice daily's "Practice: not on the day's board" included.
 */
export function shareButton(session, gameId, location) {
  const output = h('div', { class: 'share-output' });
  const button = h('button', { type: 'button', class: 'share-button', onclick: share }, 'Share');
  async function share() {
    let reply;
    try {
      reply = await session.ask({ type: 'get_share', game_id: gameId, origin: location.origin });
    } catch (error) {
      replace(output, notice(error.message));
      return;
    }
    const text = h('textarea', { class: 'share-text', readonly: true, rows: String(reply.text.split('\n').length), 'aria-label': 'Text to share', value: reply.text });
    const status = h('p', { class: 'share-status', role: 'status' });
    replace(output, status, text);
    try {
      await navigator.clipboard.writeText(reply.text);
      status.textContent = 'Copied: paste it anywhere. It shows no card and no move.';
      output.dataset.copied = 'true';
    } catch {
      text.focus();
      text.select();
      status.textContent = 'Copying is not allowed here: the text is selected, copy it with Ctrl+C.';
      output.dataset.copied = 'false';
    }
  }
  return h('div', { class: 'share-box' }, button, output);
}
