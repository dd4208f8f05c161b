/**
 * The moderators' console (`/mod`): the open reports by player with what the server computes about them, the
 * actions (each with a required reason), the mod log, and a player search. Every request is checked by the server
 * against the stored role when it is made; a player who is not a moderator sees only that the console is not theirs.
 * Nothing here decides anything: the evidence, its words, the refusals and the log are the server's. The queue and
 * the log follow the mod log (`mod_logged`: an action from the command line or another console refreshes them).
 */

import { dataTable, field, formatTime, h, notice, replace } from '../dom.js';
import { formatDuration, variantName } from '../notation.js';
import { ratingChart } from '../compete.js';
import { viewHref } from '../router.js';
import { lifecycle } from './daily.js';
import { thinkChart } from '../think-chart.js';

const ACTIONS = [
  ['mark', 'Mark as playing with help'], ['ban', 'Ban'], ['rename', 'Replace the name'], ['void', 'Void one game'],
  ['dismiss', 'Close the reports, no action'],
];
const REASON_WORDS = { help: 'playing with help', name: 'offensive name', other: 'other' };
const REPORTER_WORDS = { server: 'The server', opponent: 'Their opponent', player: 'A player' };
const SANCTION_WORDS = { mark: 'Marked as playing with help', ban: 'Banned', rename: 'Name replaced', void: 'Game voided' };
const STATUS_WORDS = { open: 'Open', acted: 'Acted on', dismissed: 'Closed' };

export function modPage(main, { session, location }) {
  const queue = h('section', { class: 'card-panel mod-queue', 'aria-labelledby': 'mod-queue-title' }, h('h2', { id: 'mod-queue-title' }, 'Open reports'), h('p', {}, 'Loading…'));
  const evidence = h('section', { class: 'card-panel mod-evidence', 'aria-label': 'Evidence', hidden: true });
  const search = h('section', { class: 'card-panel mod-search', 'aria-labelledby': 'mod-search-title' });
  const log = h('section', { class: 'card-panel mod-log', 'aria-labelledby': 'mod-log-title' });
  main.replaceChildren(h('h1', {}, 'Moderation'), h('div', { class: 'mod-grid' }, h('div', {}, queue, search), h('div', {}, evidence, log)));
  const replayHref = (gameId) => viewHref(location, `/replay/${encodeURIComponent(gameId)}`);
  let shown = null; // the player whose evidence is open, and the newest mod log action it was drawn after
  let newest = 0; // the newest action the log shows
  let lastLog = []; // the log's rows as last shown
  let refreshing = null;

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

  /** An action was logged (here, in another console or from the command line): the queue and the log again, and
   * the evidence open if the action is about its player; several at once refresh once. */
  function refresh() {
    refreshing ??= (async () => {
      try {
        await Promise.all([showQueue(), showLog()]);
        if (shown && shown.after < newest && shown.touched()) await showEvidence(shown.playerId);
      } catch {
        // the next action refreshes again; a failed request said why where it was asked
      } finally {
        refreshing = null;
      }
    })();
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
        entry.in_force.length ? ` · in force: ${entry.in_force.map((held) => SANCTION_WORDS[held.kind].toLowerCase()).join(', ')}` : '', ' ',
        h('button', { type: 'button', onclick: () => showEvidence(entry.player.player_id) }, 'Evidence')),
      h('ul', { class: 'mod-reports' }, entry.reports.map(reportLine))))));
  }

  function reportLine(report) {
    return h('li', { dataset: { reporter: report.reporter_role } },
      `${REPORTER_WORDS[report.reporter_role]} · ${REASON_WORDS[report.reason]} · ${formatTime(report.at)}`,
      report.game_id ? [' · ', h('a', { href: replayHref(report.game_id) }, 'the game')] : null,
      report.status === 'open' ? null : ` · ${STATUS_WORDS[report.status]}`,
      report.text ? h('q', {}, report.text) : null);
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
    newest = reply.entries[0]?.action_id ?? 0;
    lastLog = reply.entries;
    replace(log, h('h2', { id: 'mod-log-title' }, 'Mod log'), reply.entries.length ? h('div', { class: 'board-table mod-table' }, labelled(dataTable('Mod log', ['#', 'When', 'Who', 'What', 'Player', 'Why'],
      reply.entries.map((entry) => ({ attributes: { dataset: { action: entry.action, playerId: entry.player_id } },
        cells: [String(entry.action_id), formatTime(entry.at), entry.moderator, `${entry.action}${entry.lifts ? ` #${entry.lifts}` : ''}`,
          entry.name, entry.reason] }))))) : h('p', {}, 'No action yet.'));
  }

  async function showEvidence(playerId) {
    evidence.hidden = false;
    const after = newest;
    shown = { playerId, after, touched: () => lastLog.some((entry) => entry.action_id > after && entry.player_id === playerId) };
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
        ` · ${tokensWords(reply.tokens)}`),
      h('p', { class: 'mod-summary' }, reply.summary),
      reply.suspicion.length ? h('ul', { class: 'mod-suspicion' }, reply.suspicion.map((line) => h('li', {}, line))) : null,
      gamesTable(reply.games),
      h('dl', { class: 'mod-meanings' }, reply.meanings.map((meaning) => [h('dt', {}, meaning.signal), h('dd', {}, meaning.meaning)])),
      h('div', { class: 'mod-ratings' }, reply.ratings.map((rating) => h('div', {}, h('h3', {}, `${variantName(rating.variant)} (${rating.ladder}): ${rating.rating}, ${rating.races} ${rating.races === 1 ? 'race' : 'races'}`), ratingChart(rating.history)))),
      h('h3', {}, 'Reports'), reply.reports.length ? h('ul', { class: 'mod-reports' }, reply.reports.map(reportLine)) : h('p', {}, 'None.'),
      h('h3', {}, 'In force'), reply.in_force.length ? h('ul', { class: 'mod-in-force' }, reply.in_force.map((held) => inForceRow(player, held, reply.games))) : h('p', {}, 'Nothing.'),
      player.moderator ? h('p', {}, 'A moderator: the operator revokes the role before anything else.') : actionForm(player, reply.games));
  }

  function tokensWords(tokens) {
    if (!tokens.length) return 'no session (an unsaved player is their browser\u2019s token)';
    const revoked = tokens.filter((token) => token.revoked).length;
    const sessions = tokens.filter((token) => token.kind === 'session').length;
    return `${sessions} ${sessions === 1 ? 'session' : 'sessions'}${tokens.length > sessions ? `, ${tokens.length - sessions} bot tokens` : ''}`
      + `${revoked ? ` (${revoked} revoked)` : ''}, newest ${formatTime(tokens.at(-1).created_at)}`;
  }

  /** A sanction in force: what it is, since when, why (the mod log's reason), what the player is told, the game a
   * void names (its replay), and Lift. */
  function inForceRow(player, held, games) {
    const game = games.find((row) => row.game_id === held.game_id);
    return h('li', { dataset: { actionId: held.action_id, kind: held.kind } },
      h('p', {}, h('strong', {}, `#${held.action_id} ${SANCTION_WORDS[held.kind]}`), ` since ${formatTime(held.at)}`,
        held.game_id ? [' · ', h('a', { href: replayHref(held.game_id) }, game ? `the game (${variantName(game.variant)}, ${game.outcome} in ${game.moves} moves)` : 'the game')] : null),
      h('p', {}, 'Why: ', held.reason || '\u2013', held.public_reason ? ` · the player is told: \u201c${held.public_reason}\u201d` : ''),
      liftForm(player, held));
  }

  function gamesTable(games) {
    if (!games.length) return h('p', {}, 'No ranked game yet.');
    const reading = (game, signal, value, words) => h('span', { class: game.unusual.includes(signal) ? 'mod-unusual' : null, dataset: { signal } },
      value, h('small', {}, ` ${words}`));
    return h('div', { class: 'board-table mod-table' }, labelled(dataTable('Recent ranked games', ['Game', 'Result', 'Moves', 'Time', 'ms a move (floor)', 'Think times', 'Regularity', 'Solver line'],
      games.map((game) => ({ attributes: { dataset: { gameId: game.game_id } },
        cells: [h('a', { href: replayHref(game.game_id) }, `${variantName(game.variant)}${game.daily_day ? ` daily ${game.daily_day}` : ''}`), `${game.outcome}${game.flagged ? ' (flagged)' : ''}`,
          String(game.moves), formatDuration(game.time_ms), `${game.ms_per_move} (${game.floor_ms_per_move})`, thinkChart(game.think_ms),
          reading(game, 'regularity', game.regularity === null ? '\u2013' : game.regularity.toFixed(2), game.regularity_words),
          reading(game, 'solver_line', game.solver_agreement === null ? '\u2013' : `${Math.round(game.solver_agreement * 100)}%`, game.solver_words)] })))));
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
    const reason = h('input', { type: 'text', required: true, minlength: '3', maxlength: '500' });
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
    return h('form', { class: 'mod-lift', onsubmit: lift }, field(`Why lift #${held.action_id} (kept in the mod log)`, reason),
      h('button', { type: 'submit' }, 'Lift'));
  }

  const page = lifecycle(session, load);
  const unsubscribe = session.subscribe((reason) => {
    if (reason === 'mod_logged') refresh();
  });
  return { destroy: () => { page.destroy(); unsubscribe(); } };
}

/** Each cell labelled with its column's title (`data-label`): on a phone the console's tables are rows of labelled
 * lines (styles.css), so no column is cut off or hidden behind a scroll. */
function labelled(table) {
  const titles = [...table.querySelectorAll('thead th')].map((th) => th.textContent);
  for (const row of table.querySelectorAll('tbody tr')) {
    [...row.children].forEach((cell, index) => { cell.dataset.label = titles[index] ?? ''; });
  }
  return table;
}
