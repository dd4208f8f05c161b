/**
 * A finished game's replay: step forward and back, a slider, play at a chosen speed. The boards come from
 * the server (`start_view` and each action's `steps`, the same changes `move_accepted` carried); the page
 * only puts them together, so it needs no rules to show any variant.
 */

import { h, notice, replace } from '../dom.js';
import { dealLabel } from '../game-view.js';
import { variantName } from '../notation.js';
import { BoardRenderer } from '../render-board.js';
import { roomHref, viewHref } from '../router.js';
import { applyViewChanges } from '../view-state.js';

const SPEEDS = [['0.5', '½ move a second'], ['1', '1 move a second'], ['2', '2 moves a second'], ['4', '4 moves a second'], ['10', '10 moves a second']];

/** Every board of the replay, from the opening one: views[n] is the board after n actions. */
export function replayViews(replay) {
  if (!replay.start_view || !Object.keys(replay.start_view).length || !Array.isArray(replay.steps)) return [replay.final_view];
  const views = [replay.start_view];
  for (const step of replay.steps) views.push(applyViewChanges(views.at(-1), step));
  return views;
}

export function replayPage(main, { session, location, navigate, gameId }) {
  const body = h('div', { class: 'replay-body' }, h('p', {}, 'Loading the replay…'));
  main.replaceChildren(h('section', { class: 'replay-page', 'aria-labelledby': 'replay-title' },
    h('h1', { id: 'replay-title' }, 'Replay'), body));
  let viewer = null;
  let destroyed = false;

  async function load() {
    try {
      const replay = await session.ask({ type: 'get_replay', game_id: gameId });
      if (destroyed) return;
      const standing = session.raceOver?.standings.find((row) => row.game_id === replay.game_id);
      const who = standing?.name ?? (replay.player_id === session.playerId ? 'you' : null);
      viewer = replayViewer(body, replay, { session, location, navigate, who });
    } catch (error) {
      if (destroyed) return;
      const text = error.code === 'replay_not_available' ? 'This replay opens when the race is over (or the daily\u2019s day closes).'
        : error.code === 'unknown_game' ? 'There is no such game.' : error.message;
      replace(body, notice(text, h('a', { href: viewHref(location, '/') }, 'Back to the start')));
    }
  }

  if (session.isOpen) load();
  const unsubscribe = session.subscribe((reason) => {
    if (reason === 'connection' && session.isOpen && !viewer) load();
  });
  return {
    destroy() {
      destroyed = true;
      unsubscribe();
      viewer?.destroy();
    },
  };
}

/**
 * A replay in `body`: the controls, the board and the list of actions. `replay` is the server's `replay`
 * message, or anything of its shape (the review's solver line: `start_view`, `steps`, `actions`).
 */
export function replayViewer(body, replay, { session, location, navigate, who = null, fromStart = false, pageKeys = true }) {
  let renderer = null;
  let timer = null;
  const views = replayViews(replay);
  const last = views.length - 1;
  let position = fromStart ? 0 : last;
  const holder = h('div', { class: 'board-holder' });
  const slider = h('input', { type: 'range', min: '0', max: String(last), value: String(position), 'aria-label': 'Replay position', oninput: () => go(Number(slider.value)) });
  const where = h('span', { class: 'replay-where', dataset: { step: String(position) } });
  const playButton = h('button', { type: 'button', onclick: () => toggle() }, 'Play');
  const speed = h('select', { onchange: () => { if (timer) { stop(); start(); } } }, SPEEDS.map(([value, text]) => h('option', { value, selected: value === '2' }, text)));
  const actions = h('ol', { class: 'replay-actions', 'aria-label': 'Moves' }, replay.actions.map((action, index) => h('li', { dataset: { step: String(index + 1) } },
    h('button', { type: 'button', class: 'quiet', onclick: () => go(index + 1), 'aria-label': `Go to move ${index + 1}: ${action}` }, action))));
  const again = replay.variant === 'cell-eleven' || !navigate ? null : h('button', { type: 'button', onclick: () => playDeal() }, 'Race this deal');
  // the game as game text (docs/notation.md): to keep, share, or replay with `freecell-arena replay --game`
  const save = replay.game_text ? h('a', {
    class: 'button-link', download: `${replay.game_id}.fcgame`,
    href: `data:text/plain;charset=utf-8,${encodeURIComponent(replay.game_text)}`,
  }, 'Download game') : null;
  const root = h('div', { class: 'replay-viewer', role: 'region', 'aria-label': `Replay${who ? ` of ${who}` : ''}`, tabindex: '-1' },
    h('p', { class: 'room-meta' }, `${variantName(replay.variant)} · ${dealLabel(replay.variant, replay.seed)}`,
      who ? ` · ${who}` : '', replay.outcome ? ` · ${replay.outcome}` : '', ` · ${replay.actions.length} actions`),
    views.length === 1 && replay.actions.length ? h('p', {}, 'This server sends only the final board of a replay.') : null,
    pageKeys ? h('p', { class: 'hint replay-keys' }, '\u2190 \u2192 step a move, Home and End the first and last position.') : null,
    h('div', { class: 'replay-controls' },
      h('button', { type: 'button', onclick: () => go(0) }, 'First position'),
      h('button', { type: 'button', onclick: () => go(position - 1) }, '\u25c0 Previous move'),
      playButton,
      h('button', { type: 'button', onclick: () => go(position + 1) }, 'Next move \u25b6'),
      h('button', { type: 'button', onclick: () => go(last) }, 'Last position'),
      slider, where, h('label', { class: 'field inline' }, h('span', { class: 'field-label' }, 'Speed'), speed)),
    holder, actions, h('p', { class: 'replay-more' }, again, save));
  replace(body, root);
  renderer = new BoardRenderer(holder);
  renderer.reserve = Math.round(holder.getBoundingClientRect().top + window.scrollY) + 24; // what is above it stays in view

  /** Arrow keys step the replay: when the focus is in it, or (`pageKeys`) anywhere outside a form field. */
  function keyDown(event) {
    const target = event.target;
    const inside = root.contains(target);
    if (event.altKey || event.ctrlKey || event.metaKey || target.closest?.('input, select, textarea')) return;
    if (!inside && !(pageKeys && (target === document.body || target === document.documentElement || target.id === 'main'))) return;
    const step = { ArrowLeft: position - 1, ArrowRight: position + 1, Home: 0, End: last }[event.key];
    if (step === undefined) return;
    event.preventDefault();
    go(step);
  }
  window.addEventListener('keydown', keyDown);

  function go(next) {
    position = Math.max(0, Math.min(last, next));
    slider.value = String(position);
    where.dataset.step = String(position);
    where.textContent = `${position} / ${last}`;
    renderer.render({
      view: views[position], game: { variant: replay.variant }, gameId: replay.game_id,
      status: position === last ? (replay.outcome ?? '') : 'replay', counts: { player_moves: position },
    });
    for (const item of actions.children) item.toggleAttribute('aria-current', Number(item.dataset.step) === position);
    if (position === last) stop();
  }

  function start() {
    if (position === last) go(0);
    playButton.textContent = 'Pause';
    timer = setInterval(() => go(position + 1), 1000 / Number(speed.value));
  }

  function toggle() {
    if (timer) stop();
    else start();
  }

  function stop() {
    clearInterval(timer);
    timer = null;
    playButton.textContent = 'Play';
  }

  async function playDeal() {
    const request = { type: 'create_room', variant: replay.variant };
    if (replay.variant === 'freecell') request.deal = replay.seed;
    else request.seed = replay.seed;
    try {
      await session.ask({ type: 'leave_room' }).catch(() => null);
      const reply = await session.ask(request);
      navigate(roomHref(location, reply.room.code));
    } catch (error) {
      body.prepend(notice(error.message));
    }
  }

  go(position);
  return {
    go,
    views,
    destroy() {
      stop();
      window.removeEventListener('keydown', keyDown);
      renderer?.destroy();
    },
  };
}
