/**
 * A finished race (or a closed daily) against par: each player's result beside the solver's move count for the
 * deal, and the solver's line in the replay viewer. The server refuses it while the race runs or the day is open
 * (`race_not_over`): par is a whole solution of the deal.
 */

import { dataTable, h, notice, replace } from '../dom.js';
import { formatDuration, variantName } from '../notation.js';
import { roomHref, viewHref } from '../router.js';
import { deltaText, playerLink } from '../compete.js';
import { lifecycle } from './daily.js';
import { replayViewer } from './replay.js';

const WHY_NO_PAR = {
  unsolvable: 'The solver proved this deal has no solution: there is no par.',
  unknown: 'The solver did not settle this deal within its time budget: no par for now (asked again next time).',
};

export function reviewPage(main, { session, location, navigate, code, variant, day }) {
  const body = h('div', { class: 'review-body' }, h('p', {}, 'Working out par…'));
  const line = h('section', { class: 'card-panel review-line', 'aria-labelledby': 'par-line-title' });
  main.replaceChildren(h('h1', {}, code ? `Review of room ${code}` : `Review of the ${variantName(variant)} daily of ${day}`), body, line);
  const back = code ? h('a', { href: roomHref(location, code) }, 'Back to the room')
    : h('a', { href: viewHref(location, '/daily') }, 'Back to the dailies');
  let viewer = null;

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
    replace(line, h('h2', { id: 'par-line-title' }, `The solver\u2019s line (${reply.line.length} moves)`), holder);
    viewer = replayViewer(holder, { ...reply, game_id: `par-${code ?? `${variant}-${day}`}`, actions: reply.line, outcome: 'won', final_view: reply.start_view },
      { session, location, navigate, who: 'the solver', fromStart: true });
  }

  const stop = lifecycle(session, load);
  return {
    destroy() {
      stop.destroy();
      viewer?.destroy();
    },
  };
}
