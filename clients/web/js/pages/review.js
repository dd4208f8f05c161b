/**
 * A finished race (or a closed daily) against par: each player's result beside the solver's move count for the
 * deal, and where moves were lost: your line beside the solver's, both at the first point where yours got longer
 * (the first count of cards home you reached later than the solver, `lost-moves.js`). The server refuses it while the race runs or the day is open
 * (`race_not_over`): par is a whole solution of the deal.
 */

import { dataTable, h, notice, replace } from '../dom.js';
import { counted, formatDuration, variantName } from '../notation.js';
import { roomHref, viewHref } from '../router.js';
import { deltaText, playerLink } from '../compete.js';
import { lifecycle } from './daily.js';
import { replayViewer, replayViews } from './replay.js';
import { cardsHome, firstLoss } from '../lost-moves.js';

const WHY_NO_PAR = {
  unsolvable: 'The solver proved this deal has no solution: there is no par.',
  unknown: 'The solver did not settle this deal within its time budget: no par for now (asked again next time).',
};

export function reviewPage(main, { session, location, navigate, code, variant, day }) {
  const body = h('div', { class: 'review-body' }, h('p', {}, 'Working out par…'));
  const line = h('section', { class: 'card-panel review-line', 'aria-labelledby': 'par-line-title' });
  const lost = h('section', { class: 'card-panel review-lost', 'aria-labelledby': 'lost-title', hidden: true });
  main.replaceChildren(h('h1', {}, code ? `Review of room ${code}` : `Review of the ${variantName(variant)} daily of ${day}`), body, lost, line);
  const back = code ? h('a', { href: roomHref(location, code) }, 'Back to the room')
    : h('a', { href: viewHref(location, '/daily') }, 'Back to the dailies');
  let viewer = null;
  let yourViewer = null;

  async function load() {
    try {
      show(await session.ask(code ? { type: 'get_review', code } : { type: 'get_review', variant, day }));
    } catch (error) {
      replace(body, notice(error.code === 'race_not_over' ? (code ? 'The review opens when the race is over.' : 'The review opens when the day closes.')
        : error.code === 'unknown_room' ? `There is no room ${code}.` : error.message, back));
      line.remove();
    }
  }

  function show(reply) {
    replace(body, h('section', { class: 'card-panel board-table', 'aria-label': 'Results against par', dataset: { par: reply.par ?? '' } },
      h('p', { class: 'room-meta' }, `${variantName(reply.variant)} · ${reply.par === null ? WHY_NO_PAR[reply.par_status] : `par ${reply.par} moves`}`),
      dataTable('Results against par', ['Player', 'Result', 'Moves', 'Against par', 'Time'], reply.results.map((row) => ({
        attributes: { class: row.player_id === session.playerId ? 'me' : '', dataset: { playerId: row.player_id, overPar: row.over_par ?? '' } },
        cells: [playerLink(location, row.player_id, row.name), row.outcome, String(row.moves),
          row.over_par === null ? '\u2013' : deltaText(row.over_par), formatDuration(row.time_ms)],
      }))),
      h('p', {}, back)));
    if (!reply.line.length) {
      line.remove();
      return;
    }
    const holder = h('div', {});
    replace(line, h('h2', { id: 'par-line-title' }, `The solver\u2019s line (${counted(reply.line.length, 'move')})`), holder);
    const par = { ...reply, game_id: `par-${code ?? `${variant}-${day}`}`, actions: reply.line, outcome: 'won', final_view: reply.start_view };
    viewer = replayViewer(holder, par, { session, location, navigate, who: 'the solver', fromStart: true, pageKeys: false });
    const mine = reply.results.find((row) => row.player_id === session.playerId);
    if (mine) compare(mine, par).catch(() => null); // a replay still secret (or gone): the solver's line alone
  }

  /** Your line beside the solver's, each at the first point where yours got longer. */
  async function compare(row, par) {
    const replay = await session.ask({ type: 'get_replay', game_id: row.game_id });
    const yours = replayViews(replay);
    const point = firstLoss(yours, viewer.views);
    const holder = h('div', {});
    const home = cardsHome(yours.at(-1));
    const where = point === null
      ? (home >= cardsHome(viewer.views.at(-1))
        ? 'You kept pace with the solver all the way: every card you put home, you put home as soon as it did.'
        : `You kept pace with the solver as far as you went (${counted(home, 'card')} home); it went on to put every card home.`)
      : point.yourMove === null
        ? `You kept pace up to ${counted(point.cards - 1, 'card')} home (your move ${point.keptUntil}); the solver had ${point.cards} after ${counted(point.parMove, 'move')}, and you never got there.`
        : `Your line first got longer at card ${point.cards} home: the solver had it after ${counted(point.parMove, 'move')}, you after ${point.yourMove} (you had kept pace until your move ${point.keptUntil}).`;
    replace(lost, h('h2', { id: 'lost-title' }, 'Where moves were lost'),
      h('p', { class: 'lost-summary', dataset: { cards: point?.cards ?? '', yourMove: point?.yourMove ?? '', parMove: point?.parMove ?? '' } }, where),
      h('div', { class: 'lost-side-by-side' }, h('section', { class: 'your-line', 'aria-labelledby': 'your-line-title' },
        h('h2', { id: 'your-line-title' }, `Your line (${counted(replay.actions.length, 'move')})`), holder), line));
    lost.hidden = false;
    yourViewer = replayViewer(holder, replay, { session, location, navigate: null, who: 'you', pageKeys: true });
    if (point) {
      yourViewer.go(point.yourMove ?? point.keptUntil);
      viewer.go(point.parMove);
    }
  }

  const stop = lifecycle(session, load);
  return {
    destroy() {
      stop.destroy();
      viewer?.destroy();
      yourViewer?.destroy();
    },
  };
}
