/**
 * The moderators' console (`/mod`): the open reports by player with what the server computes about them, the
 * actions (each with a required reason), the mod log, and a player search. Every request is checked by the server
 * against the stored role when it is made; a player who is not a moderator sees only that the console is not theirs.
 * Nothing here decides anything: the evidence, the refusals and the log are the server's.
 */

import { dataTable, field, formatTime, h, notice, replace } from '../dom.js';
import { formatDuration, variantName } from '../notation.js';
import { ratingChart, svg } from '../compete.js';
import { viewHref } from '../router.js';
import { lifecycle } from './daily.js';

const ACTIONS = [
  ['mark', 'Mark as playing with help'], ['ban', 'Ban'], ['rename', 'Replace the name'], ['void', 'Void one game'],
  ['dismiss', 'Close the reports, no action'],
];
const REASON_WORDS = { help: 'playing with help', name: 'offensive name', other: 'other' };

export function modPage(main, { session, location }) {
  const queue = h('section', { class: 'card-panel mod-queue', 'aria-labelledby': 'mod-queue-title' }, h('h2', { id: 'mod-queue-title' }, 'Open reports'), h('p', {}, 'Loading…'));
  const evidence = h('section', { class: 'card-panel mod-evidence', 'aria-label': 'Evidence', hidden: true });
  const search = h('section', { class: 'card-panel mod-search', 'aria-labelledby': 'mod-search-title' });
  const log = h('section', { class: 'card-panel mod-log', 'aria-labelledby': 'mod-log-title' });
  main.replaceChildren(h('h1', {}, 'Moderation'), h('div', { class: 'mod-grid' }, h('div', {}, queue, search), h('div', {}, evidence, log)));

  async function load() {
    try {
      await showQueue();
    } catch (error) {
      main.replaceChildren(h('h1', {}, 'Moderation'),
        notice(error.code === 'not_allowed' ? 'The console is for moderators. The server operator makes a saved player one.' : error.message));
      return;
    }
    showSearch();
    await showLog();
  }

  async function showQueue() {
    const reply = await session.ask({ type: 'mod_queue' });
    const title = h('h2', { id: 'mod-queue-title' }, `Open reports (${reply.players.length} ${reply.players.length === 1 ? 'player' : 'players'})`);
    if (!reply.players.length) {
      replace(queue, title, h('p', {}, 'Nothing to look at.'));
      return;
    }
    replace(queue, title, h('ul', { class: 'mod-targets' }, reply.players.map((entry) => h('li', { dataset: { playerId: entry.player.player_id } },
      h('p', {}, h('strong', {}, entry.player.name), ` · ${entry.reports.length} ${entry.reports.length === 1 ? 'report' : 'reports'}`,
        entry.in_force.length ? ` · in force: ${entry.in_force.map((held) => held.kind).join(', ')}` : '', ' ',
        h('button', { type: 'button', onclick: () => showEvidence(entry.player.player_id) }, 'Evidence')),
      h('ul', { class: 'mod-reports' }, entry.reports.map((report) => h('li', {},
        `${report.source === 'auto' ? 'The server' : 'A player'} · ${REASON_WORDS[report.reason]} · ${formatTime(report.at)}`,
        report.text ? h('q', {}, report.text) : null)))))));
  }

  function showSearch() {
    const input = h('input', { type: 'search', maxlength: '64', autocomplete: 'off' });
    const found = h('ul', { class: 'mod-found' });
    const find = async (event) => {
      event.preventDefault();
      if (!input.value.trim()) return;
      try {
        const reply = await session.ask({ type: 'mod_search', query: input.value.trim() });
        replace(found, reply.players.length ? reply.players.map((player) => h('li', {}, `${player.name}${player.bot ? ' (bot)' : ''}${player.moderator ? ' (moderator)' : ''} `,
          h('button', { type: 'button', onclick: () => showEvidence(player.player_id) }, 'Evidence'))) : h('li', {}, 'No player.'));
      } catch (error) {
        replace(found, h('li', {}, notice(error.message)));
      }
    };
    replace(search, h('h2', { id: 'mod-search-title' }, 'Find a player'),
      h('form', { onsubmit: find, role: 'search' }, field('Name or id', input), h('button', { type: 'submit' }, 'Search')), found);
  }

  async function showLog() {
    const reply = await session.ask({ type: 'mod_log', limit: 50 });
    replace(log, h('h2', { id: 'mod-log-title' }, 'Mod log'), reply.entries.length ? dataTable('Mod log', ['#', 'When', 'Who', 'What', 'Player', 'Why'],
      reply.entries.map((entry) => ({ attributes: { dataset: { action: entry.action, playerId: entry.player_id } },
        cells: [String(entry.action_id), formatTime(entry.at), entry.moderator, `${entry.action}${entry.lifts ? ` #${entry.lifts}` : ''}`,
          entry.name, entry.reason] }))) : h('p', {}, 'No action yet.'));
  }

  async function showEvidence(playerId) {
    evidence.hidden = false;
    replace(evidence, h('h2', {}, 'Evidence'), h('p', { role: 'status' }, 'Working it out (solving their deals may take a few seconds)…'));
    let reply;
    try {
      reply = await session.ask({ type: 'mod_evidence', player_id: playerId });
    } catch (error) {
      replace(evidence, h('h2', {}, 'Evidence'), notice(error.message));
      return;
    }
    const player = reply.player;
    replace(evidence,
      h('h2', { id: 'mod-evidence-title' }, `Evidence: ${player.name}`),
      h('p', {}, h('a', { href: viewHref(location, `/player/${encodeURIComponent(player.player_id)}`) }, 'Player page'),
        ` · player since ${formatTime(player.created_at)}`, reply.saved_at ? ` · saved ${formatTime(reply.saved_at)}` : ' · not saved',
        ` · ${reply.tokens.length} ${reply.tokens.length === 1 ? 'token' : 'tokens'}${reply.tokens.length ? `, newest ${formatTime(reply.tokens.at(-1).created_at)}` : ''}`),
      reply.suspicion.length ? h('ul', { class: 'mod-suspicion' }, reply.suspicion.map((line) => h('li', {}, line))) : h('p', {}, 'The signals say nothing unusual.'),
      gamesTable(reply.games),
      h('div', { class: 'mod-ratings' }, reply.ratings.map((rating) => h('div', {}, h('h3', {}, `${variantName(rating.variant)} (${rating.ladder}): ${rating.rating}, ${rating.races} ${rating.races === 1 ? 'race' : 'races'}`), ratingChart(rating.history)))),
      h('h3', {}, 'Reports'), reply.reports.length ? h('ul', {}, reply.reports.map((report) => h('li', {},
        `${report.status} · ${report.source === 'auto' ? 'the server' : 'a player'} · ${REASON_WORDS[report.reason]} · ${formatTime(report.at)} `, report.text ? h('q', {}, report.text) : null))) : h('p', {}, 'None.'),
      h('h3', {}, 'In force'), reply.in_force.length ? h('ul', {}, reply.in_force.map((held) => h('li', { dataset: { actionId: held.action_id } },
        `#${held.action_id} ${held.kind}${held.game_id ? ` of game ${held.game_id}` : ''} since ${formatTime(held.at)} `,
        liftForm(player, held)))) : h('p', {}, 'Nothing.'),
      player.moderator ? h('p', {}, 'A moderator: the operator revokes the role before anything else.') : actionForm(player, reply.games));
  }

  function gamesTable(games) {
    if (!games.length) return h('p', {}, 'No ranked game yet.');
    return h('div', { class: 'board-table' }, dataTable('Recent ranked games', ['Game', 'Result', 'Moves', 'Time', 'ms a move (floor)', 'Think times', 'Regularity', 'Solver line'],
      games.map((game) => ({ attributes: { dataset: { gameId: game.game_id } },
        cells: [`${variantName(game.variant)}${game.daily_day ? ` daily ${game.daily_day}` : ''}`, `${game.outcome}${game.flagged ? ' (flagged)' : ''}`,
          String(game.moves), formatDuration(game.time_ms), `${game.ms_per_move} (${game.floor_ms_per_move})`, thinkChart(game.think_ms),
          game.regularity === null ? '\u2013' : game.regularity.toFixed(2), game.solver_agreement === null ? '\u2013' : `${Math.round(game.solver_agreement * 100)}%`] }))));
  }

  function actionForm(player, games) {
    const action = h('select', {}, ACTIONS.map(([value, label]) => h('option', { value }, label)));
    const game = h('select', {}, games.map((row) => h('option', { value: row.game_id }, `${variantName(row.variant)} · ${row.outcome} · ${row.moves} moves`)));
    const reason = h('input', { type: 'text', required: true, minlength: '3', maxlength: '500' });
    const publicReason = h('input', { type: 'text', maxlength: '200' });
    const status = h('p', { role: 'status' });
    const gameField = field('Game', game);
    const publicField = field('Public reason', publicReason, 'What a banned player is told.');
    const sync = () => { gameField.hidden = action.value !== 'void'; publicField.hidden = action.value !== 'ban'; };
    action.addEventListener('change', sync);
    sync();
    const act = async (event) => {
      event.preventDefault();
      const request = { type: 'mod_action', action: action.value, player_id: player.player_id, reason: reason.value };
      if (action.value === 'void') request.game_id = game.value;
      if (action.value === 'ban') request.public_reason = publicReason.value;
      try {
        const reply = await session.ask(request);
        status.textContent = `Done: #${reply.entry.action_id} ${reply.entry.action} of ${reply.entry.name}.`;
        await Promise.all([showQueue(), showLog()]);
        await showEvidence(player.player_id);
      } catch (error) {
        status.textContent = error.message;
      }
    };
    return h('form', { class: 'mod-action', 'aria-label': `Act on ${player.name}`, onsubmit: act },
      h('h3', {}, 'Act'), field('Action', action), gameField, field('Reason (kept in the mod log)', reason), publicField,
      h('button', { type: 'submit' }, 'Apply'), status);
  }

  function liftForm(player, held) {
    const reason = h('input', { type: 'text', required: true, minlength: '3', maxlength: '500', 'aria-label': `Why lift #${held.action_id}` });
    const lift = async (event) => {
      event.preventDefault();
      try {
        await session.ask({ type: 'mod_action', action: 'lift', player_id: player.player_id, lifts: held.action_id, reason: reason.value });
        await Promise.all([showQueue(), showLog()]);
        await showEvidence(player.player_id);
      } catch (error) {
        reason.setCustomValidity(error.message);
        reason.reportValidity();
      }
    };
    return h('form', { class: 'mod-lift', onsubmit: lift }, reason, ' ', h('button', { type: 'submit' }, 'Lift'));
  }

  return lifecycle(session, load);
}

/** The think time before each move as small bars: a person's vary, a program's pacing is a flat row. */
function thinkChart(times, { width = 160, height = 32 } = {}) {
  if (!times.length) return '\u2013';
  const high = Math.max(...times, 1);
  const step = width / times.length;
  return svg('svg', { class: 'think-chart', viewBox: `0 0 ${width} ${height}`, width, height, role: 'img',
    'aria-label': `Think times of ${times.length} moves, from ${Math.min(...times)} to ${high} ms` },
  ...times.map((time, index) => svg('rect', { x: (index * step).toFixed(1), width: Math.max(1, step - 1).toFixed(1),
    y: (height - (time / high) * height).toFixed(1), height: ((time / high) * height).toFixed(1) })));
}
