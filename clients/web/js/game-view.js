/**
 * A player's own game on screen: the move counter and timer from the server's counts, the board, the buttons
 * under it (Hint and Finish in practice and casual play, Undo, Zoom, and Resign apart at the end, asked before it
 * acts), the "Move" box for notation, the settings and keyboard help, and the outcome once the game is over (in a
 * race: your place, once the standings say it). Used by the room page (a race) and the daily page.
 *
 * The board comes first in the tab order after the game's title, so a keyboard player reaches the cards before
 * any button; the board is sized to keep the bar above it and the buttons below it in view (`reserve`).
 */

import { buzz, cascade, sound } from './celebrate.js';
import { confirmAction } from './dialog.js';
import { h, replace } from './dom.js';
import { BoardInput, KEY_HELP } from './input.js';
import { cardsWords, countsText, formatDuration, genericWords, ordinal, parseGeneric, pileLabel, parsePileId, refusalWords, shortSeed, variantById, variantName } from './notation.js';
import { BoardRenderer } from './render-board.js';
import { settings } from './settings.js';
import { pileCards } from './view-state.js';
import { placeSoFar, solvedSoFarText } from './race-words.js';

const PENDING_MARK_DELAY_MS = 150;
const FINISH_STEP_MS = 120; // auto-finish plays one card at a time, so it can be seen (and announced)

const OUTCOME_TITLES = {
  won: 'You won!', resigned: 'You resigned', stuck: 'Stuck: no move is left', timeout: 'Time is up',
};
export const NO_HINTS = 'Hints and auto-finish are off here: ranked races and the daily challenge count each player\u2019s own play on the boards.';
/** A practice daily counts on no board, yet the server gives no hint in any daily: the deal is still being played. */
export const NO_HINTS_IN_PRACTICE = 'Hints and auto-finish are off in the daily challenge, practice included: everyone plays today\u2019s deal on their own until it closes.';

/** "deal #1606060671" (a FreeCell deal number, at most ten digits, whole: players look deals up by it), "seed
 * 7654…397" (another variant's seed, up to 19 digits, shortened: whole in the title's tooltip and the replay). */
export function dealLabel(variant, seed) {
  if (seed === null || seed === undefined) return 'deal hidden until the race ends';
  return variant === 'freecell' ? `deal #${seed}` : `seed ${shortSeed(seed)}`;
}

function check(label, name, hint = null) {
  return h('label', { class: 'check' },
    h('input', { type: 'checkbox', checked: settings[name], onchange: (event) => settings.set(name, event.target.checked) }),
    label, hint ? h('small', { class: 'hint' }, ` ${hint}`) : null);
}

export class GameView {
  /** `hintsAllowed()`: whether this game may ask for hints (the page knows: an unranked room, not a daily);
   * `noHints()`: why not, when not;
   * `scrollToStart`: bring the game to the top of the window once its board is laid out (a game starting now). */
  constructor(session, { hintsAllowed = () => false, noHints = () => NO_HINTS, scrollToStart = false,
    race = () => ({ room: session.room, over: session.raceOver }), clocks = () => [] } = {}) {
    this.session = session;
    this.race = race; // the room and its standings as the page shows them
    this.clocks = clocks; // the race's clocks beside the game's (time left, berserk's)
    this.hintsAllowed = hintsAllowed;
    this.noHints = noHints;
    this.scrollPending = scrollToStart;
    this.celebration = null; // the win's cascade while it falls (celebrate.js)
    this.moves = h('strong', { dataset: { moves: '0' } }, '0');
    this.timer = h('strong', { dataset: { timeMs: '0' } }, '0:00');
    this.status = h('span', { class: 'game-status', dataset: { gameStatus: '' } });
    this.clockBox = h('span', { class: 'race-clocks' });
    this.clocksShown = '';
    this.title = h('h2', { class: 'game-title' });
    this.hintButton = h('button', { type: 'button', onclick: () => this.hint() }, 'Hint');
    this.finishButton = h('button', { type: 'button', onclick: () => this.finish(), title: 'Send every card home, once nothing else is left to do' }, 'Finish');
    this.undoButton = h('button', { type: 'button', onclick: () => session.undo(), title: 'Take back your last move: the undo counts as a move too', 'aria-label': 'Undo (costs a move)' }, 'Undo', h('small', { class: 'costs' }, ' (+1 move)'));
    this.zoomButton = h('button', { type: 'button', class: 'zoom', 'aria-pressed': String(settings.zoom), onclick: () => this.toggleZoom(), title: 'Bigger cards to tap; the board scrolls sideways' }, 'Zoom');
    this.resignButton = h('button', { type: 'button', class: 'danger resign', onclick: () => this.resign() }, 'Resign');
    this.outcome = h('div', { class: 'outcome', hidden: true, dataset: { outcome: '' } });
    this.refusal = h('p', { class: 'refusal', hidden: true });
    this.hintNote = h('p', { class: 'hint-note hint', hidden: true });
    this.told = h('p', { class: 'game-told', role: 'status' }); // what Hint and Finish answered, under the board
    this.rotate = h('p', { class: 'rotate-hint hint' }, 'A wide board: turn your phone sideways for bigger cards, or press Zoom.');
    this.holder = h('div', { class: 'board-holder' });
    this.moveInput = h('input', {
      type: 'text', name: 'move', autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false',
      placeholder: 'e.g. 3a or t3-c1', enterkeyhint: 'send',
    });
    const moveForm = h('form', { class: 'move-form', onsubmit: (event) => this.submitMove(event) },
      h('label', { class: 'move-label' }, 'Move', this.moveInput),
      h('button', { type: 'submit' }, 'Play move'));
    this.bar = h('div', { class: 'game-bar' }, this.title,
      h('span', { class: 'counter' }, 'Moves ', this.moves),
      h('span', { class: 'counter' }, 'Time ', this.timer), this.clockBox,
      this.status);
    // The Move box sits with the buttons, in the height kept for them beside the board: typing a move never scrolls
    // the counters or the cells out of view.
    this.actions = h('div', { class: 'game-actions' }, this.hintButton, this.finishButton, this.undoButton, moveForm,
      h('span', { class: 'spacer' }), this.zoomButton, this.resignButton);
    this.element = h('section', { class: 'game', 'aria-label': 'Your game' },
      this.bar, this.outcome, this.rotate, this.holder, this.actions, this.told, this.hintNote, this.refusal,
      h('div', { class: 'game-tools' },
        h('div', { class: 'settings-row' }, check('Four-colour suits', 'fourColour'), check('Sounds', 'sounds'), check('Vibration', 'vibration')),
        h('details', { class: 'help' }, h('summary', {}, 'Keyboard help'),
          h('p', {}, 'Sounds, vibration and the win\u2019s cascade stay off while your system asks for reduced motion. '),
          h('p', {}, 'Click or tap a card, then where it goes; or drag it (a card drags the cards above it too). Double-click or double-tap sends a card to its foundation. Undo takes back your last move and counts as a move itself.'),
          h('table', {}, h('tbody', {}, KEY_HELP.map(([keys, what]) => h('tr', {}, h('th', { scope: 'row' }, h('kbd', {}, keys)), h('td', {}, what))))))));
    this.renderer = new BoardRenderer(this.holder);
    this.renderer.zoom = settings.zoom;
    this.renderer.onLayout = ({ zoomHelps }) => setProperty(this.zoomButton, 'hidden', !zoomHelps); // offered where it helps
    this.input = new BoardInput(this.holder, {
      play: (notation, meta) => this.play(notation, meta),
      undo: () => (this.session.game.game?.undo_allowed ? this.session.undo() : null),
      focusMoveBox: () => this.moveInput.focus(),
      canPlay: () => this.session.game.playing,
      picked: (selection) => this.announcePick(selection),
    });
    this.chrome = typeof ResizeObserver === 'function' ? new ResizeObserver(() => this.measure()) : null;
    this.chrome?.observe(this.bar);
    this.chrome?.observe(this.actions);
    this.unsubscribe = session.subscribe((reason) => this.update(reason));
    this.tick = setInterval(() => this.updateTimer(), 250);
    this.update('mount');
  }

  destroy() {
    this.unsubscribe();
    clearInterval(this.tick);
    clearTimeout(this.pendingTimer);
    this.chrome?.disconnect();
    this.finishing = false;
    this.input.destroy();
    this.renderer.destroy();
    this.celebration?.remove(); // the win's cards fall over their own board, not over the page a player goes to next
  }

  /** What must stay in view with the board: the bar above, the buttons below (measured when they change size,
   * never during a move). */
  measure() {
    const reserve = this.bar.offsetHeight + this.actions.offsetHeight + 28; // and their margins, the scroll margin
    if (reserve !== this.renderer.reserve) {
      this.renderer.reserve = reserve;
      this.renderer.layout();
    }
    if (this.scrollPending && this.element.isConnected) { // the board at its size: now the page can scroll to it
      this.scrollPending = false;
      requestAnimationFrame(() => this.element.scrollIntoView({ block: 'start' }));
    }
  }

  toggleZoom() {
    const on = !settings.zoom;
    settings.set('zoom', on);
    this.zoomButton.setAttribute('aria-pressed', String(on));
    this.renderer.zoom = on;
    this.renderer.layout();
  }

  play(notation, meta) {
    setProperty(this.refusal, 'hidden', true);
    this.clearHint();
    return this.session.move(notation, meta);
  }

  async submitMove(event) {
    event.preventDefault();
    const text = this.moveInput.value.trim();
    if (!text) return;
    const accepted = await this.play(text);
    if (accepted && this.moveInput.value.trim() === text) this.moveInput.value = '';
  }

  async resign() {
    const sure = await confirmAction({
      title: 'Resign this game?', confirm: 'Resign',
      text: 'Your game ends now with the cards you have home; it cannot be taken back.',
    });
    if (sure) this.session.resign();
  }

  announcePick(selection) {
    if (!selection) {
      this.session.say('Put back.', 'move');
      return;
    }
    const { zone, index } = parsePileId(selection.pile);
    const cards = pileCards(this.session.game.view, zone, index).slice(-selection.count);
    this.session.say(`Picked up ${cardsWords(cards)} from ${pileLabel(zone, index).toLowerCase()}. Now choose where it goes.`, 'move');
  }

  /** What Hint and Finish answered: under the board, where the button was pressed, and in the events. */
  tell(text, kind) {
    this.told.textContent = text;
    this.session.say(text, kind);
  }

  /** The server's hint for this game (its `move` and `finish`), or null once the refusal is said. */
  async askHint() {
    try {
      return await this.session.hint();
    } catch (error) {
      this.tell(error.message, 'error');
      return null;
    }
  }

  async hint() {
    this.clearHint();
    const reply = await this.askHint();
    if (!reply) return;
    if (!reply.move) {
      this.tell('No hint: no move leads to a win from here. Undo or resign.', 'info');
      return;
    }
    const move = parseGeneric(reply.move);
    this.hinted = move;
    this.holder.querySelector(`[data-pile="${move.source}"]`)?.classList.add('hint-from');
    this.holder.querySelector(`[data-pile="${move.target}"]`)?.classList.add('hint-to');
    this.tell(`Hint: ${genericWords(reply.move, this.session.game.view)}.`, 'info');
  }

  clearHint() {
    this.hinted = null;
    setText(this.told, '');
    this.holder.querySelectorAll('.hint-from, .hint-to').forEach((node) => node.classList.remove('hint-from', 'hint-to'));
  }

  /** Auto-finish: the server's moves that send every card home, played one by one like any move (each counted). */
  async finish() {
    if (this.finishing) return;
    const reply = await this.askHint();
    if (!reply) return;
    if (!reply.finish.length) {
      this.tell('Not yet: some cards still need moving before everything can go home.', 'info');
      return;
    }
    this.finishing = true;
    this.tell(`Finishing: ${reply.finish.length} moves send every card home.`, 'info');
    for (const move of reply.finish) {
      if (!this.finishing || !this.session.game.playing) break;
      if (!await this.play(move)) break;
      await new Promise((resolve) => { setTimeout(resolve, FINISH_STEP_MS); });
    }
    this.finishing = false;
  }

  update(reason) {
    const game = this.session.game;
    if (!game.game) return;
    if (reason === 'pending') { // marked only if the answer is slow: see BoardInput.send
      clearTimeout(this.pendingTimer);
      this.pendingTimer = setTimeout(() => this.update('pending-shown'), PENDING_MARK_DELAY_MS);
      return;
    }
    this.renderer.render(game, this.session.pendingSources());
    this.input.refresh();
    const { variant, seed, undo_allowed: undoAllowed, daily } = game.game;
    // Only what changed is written: a write the page does not need costs a frame while a move is in flight.
    setText(this.title, `${variantName(variant)} · ${daily ? `daily ${daily}` : dealLabel(variant, seed)}`);
    if (seed !== null && seed !== undefined) setAttribute(this.title, 'title', `${variantName(variant)}, ${variant === 'freecell' ? 'deal' : 'seed'} ${seed}`);
    setText(this.moves, String(game.counts.player_moves));
    setData(this.moves, 'moves', String(game.counts.player_moves));
    setText(this.status, game.playing ? (game.onlyUndoLeft ? 'No move left: undo or resign' : 'Playing') : this.statusWords(game));
    setData(this.status, 'gameStatus', game.status ?? '');
    const hints = this.hintsAllowed();
    setProperty(this.hintButton, 'hidden', !hints);
    setProperty(this.finishButton, 'hidden', !hints);
    setProperty(this.hintButton, 'disabled', !game.playing);
    setProperty(this.finishButton, 'disabled', !game.playing);
    setProperty(this.hintNote, 'hidden', hints || !game.playing);
    setText(this.hintNote, hints ? '' : this.noHints());
    setProperty(this.undoButton, 'hidden', !undoAllowed);
    setProperty(this.undoButton, 'disabled', !game.playing || game.actions.length === 0);
    setProperty(this.resignButton, 'disabled', !game.playing);
    setProperty(this.moveInput, 'disabled', !game.playing);
    setData(this.element, 'wide', String((variantById(variant)?.columns ?? 8) > 8));
    this.updateTimer();
    this.updateOutcome(game);
    const refusal = this.session.lastRefusal;
    if (reason === 'refused' && refusal) {
      this.refusal.hidden = false;
      this.refusal.dataset.reason = refusal.reason ?? refusal.code ?? '';
      this.refusal.textContent = refusalWords(refusal);
      sound('refused');
      buzz('refused');
    } else if (reason === 'move_accepted') {
      setProperty(this.refusal, 'hidden', true);
      sound('move');
      buzz('move');
    }
  }

  /** Your place in the race once the standings are in; before that, in a race of several, only that you solved. */
  racePlace(game) {
    const { room, over: standings } = this.race();
    if (!room || game.game.room_code !== room.code) return null;
    const over = standings?.code === room.code ? standings : null;
    const mine = over?.standings.find((row) => row.player_id === this.session.playerId);
    const racers = over ? over.standings.length : room.members.filter((member) => member.role === 'player').length;
    if (racers < 2) return null;
    if (!mine) return { racers, rank: null };
    return { racers, rank: mine.rank, tie: over.standings.filter((row) => row.rank === mine.rank).length > 1 };
  }

  /** The bar's word for a game over: a solve in a race is "Solved" until the standings rank it first. */
  statusWords(game) {
    const place = game.status === 'won' ? this.racePlace(game) : null;
    if (place && !(place.rank === 1 && !place.tie)) return 'Solved';
    return OUTCOME_TITLES[game.status] ?? game.status;
  }

  outcomeTitle(game, place) {
    const title = OUTCOME_TITLES[game.status] ?? game.status;
    if (!place) return title;
    if (place.rank === null) { // the race goes on: a solve's place so far, never "won" before the race is decided
      if (game.status !== 'won') return title;
      const { room } = this.race();
      const soFar = placeSoFar(room, this.session.playerId);
      return soFar ? solvedSoFarText(room, game.counts, soFar) : 'Solved! Waiting for the others\u2026';
    }
    const where = `${ordinal(place.rank)} of ${place.racers}${place.tie ? ' (a tie)' : ''}`;
    if (game.status === 'won') return place.rank === 1 && !place.tie ? 'You won the race!' : `Solved \u00b7 ${where}`;
    return `${title} \u00b7 ${where}${place.rank === 1 ? ', nobody solved it' : ''}`; // first on cards home is no win
  }

  updateOutcome(game) {
    if (game.playing || !game.status) {
      setProperty(this.outcome, 'hidden', true);
      return;
    }
    const place = this.racePlace(game);
    const title = this.outcomeTitle(game, place);
    const key = `${game.gameId} ${game.status} ${game.counts.player_moves} ${title}`;
    if (this.outcome.dataset.shown === key) return;
    const firstTime = !this.outcome.dataset.shown?.startsWith(`${game.gameId} ${game.status}`);
    this.outcome.dataset.shown = key;
    this.outcome.hidden = false;
    this.outcome.dataset.outcome = game.status;
    this.outcome.dataset.place = place?.rank ?? '';
    this.outcome.className = `outcome ${game.status}`;
    replace(this.outcome, h('strong', {}, title),
      ` ${countsText(game.counts.player_moves, game.counts.cards_on_foundations, game.counts.time_ms)}.`,
      game.outcomeMessage && !(place && game.status === 'won') && game.outcomeMessage !== `${OUTCOME_TITLES[game.status]}.`
        ? h('span', { class: 'outcome-message' }, ` ${game.outcomeMessage}`) : null); // a race's place says it better
    if (firstTime && game.status === 'won' && game.actions.length && this.session.game.lastMove) { // won here, now
      this.celebration = cascade(this.renderer.board);
      sound('won');
      buzz('won');
    }
  }

  updateTimer() {
    const game = this.session.game;
    const elapsed = game.elapsedMs(Date.now());
    setText(this.timer, formatDuration(elapsed));
    this.timer.dataset.timeMs = String(elapsed);
    const clocks = this.clocks();
    const shown = JSON.stringify(clocks);
    if (shown !== this.clocksShown) { // a second's change, not a frame's
      this.clocksShown = shown;
      replace(this.clockBox, clocks.map(({ label, text, over }) => h('span', { class: `counter${over ? ' over' : ''}`, dataset: { clock: label } }, `${label} `, h('strong', {}, text))));
    }
  }
}

function setText(element, text) {
  if (element.textContent !== text) element.textContent = text;
}

function setData(element, key, value) {
  if (element.dataset[key] !== value) element.dataset[key] = value;
}

function setAttribute(element, name, value) {
  if (element.getAttribute(name) !== value) element.setAttribute(name, value);
}

function setProperty(element, name, value) {
  if (element[name] !== value) element[name] = value;
}
