/**
 * A player's own game on screen: the board, the move counter and timer from the server's counts, Undo and
 * Resign, the "Move" box for notation, the keyboard help, and the outcome once the game is over. Used by the
 * room page (a race) and the daily page.
 */

import { h, replace } from './dom.js';
import { BoardInput, KEY_HELP } from './input.js';
import { countsText, formatDuration, variantName } from './notation.js';
import { BoardRenderer } from './render-board.js';
import { settings } from './settings.js';

const PENDING_MARK_DELAY_MS = 150;

const OUTCOME_TITLES = {
  won: 'You won!', resigned: 'You resigned', stuck: 'Stuck: no move is left', timeout: 'Time is up',
};

export function dealLabel(variant, seed) {
  if (seed === null || seed === undefined) return 'deal hidden until the race ends';
  return variant === 'freecell' ? `deal #${seed}` : `seed ${seed}`;
}

export class GameView {
  constructor(session) {
    this.session = session;
    this.moves = h('strong', { dataset: { moves: '0' } }, '0');
    this.timer = h('strong', { dataset: { timeMs: '0' } }, '0:00');
    this.status = h('span', { class: 'game-status', dataset: { gameStatus: '' } });
    this.title = h('h2', { class: 'game-title' });
    this.undoButton = h('button', { type: 'button', onclick: () => session.undo() }, 'Undo');
    this.resignButton = h('button', { type: 'button', class: 'danger', onclick: () => session.resign() }, 'Resign');
    this.outcome = h('div', { class: 'outcome', hidden: true, dataset: { outcome: '' } });
    this.refusal = h('p', { class: 'refusal', hidden: true });
    this.holder = h('div', { class: 'board-holder' });
    this.moveInput = h('input', {
      type: 'text', name: 'move', autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false',
      placeholder: 'e.g. 3a or t3-c1', enterkeyhint: 'send',
    });
    const moveForm = h('form', { class: 'move-form', onsubmit: (event) => this.submitMove(event) },
      h('label', { class: 'move-label' }, 'Move', this.moveInput),
      h('button', { type: 'submit' }, 'Play move'));
    const colours = h('input', { type: 'checkbox', checked: settings.fourColour, onchange: (event) => settings.setFourColour(event.target.checked) });
    this.element = h('section', { class: 'game', 'aria-label': 'Your game' },
      h('div', { class: 'game-bar' }, this.title,
        h('span', { class: 'counter' }, 'Moves ', this.moves),
        h('span', { class: 'counter' }, 'Time ', this.timer),
        this.status,
        h('span', { class: 'game-buttons' }, this.undoButton, this.resignButton)),
      this.outcome,
      this.holder,
      this.refusal,
      h('div', { class: 'game-tools' }, moveForm,
        h('label', { class: 'check' }, colours, 'Four-colour suits'),
        h('details', { class: 'help' }, h('summary', {}, 'Keyboard help'),
          h('p', {}, 'Click or tap a card, then where it goes; or drag it (a card drags the cards above it too). Double-click or double-tap sends a card to its foundation.'),
          h('table', {}, h('tbody', {}, KEY_HELP.map(([keys, what]) => h('tr', {}, h('th', { scope: 'row' }, h('kbd', {}, keys)), h('td', {}, what))))))));
    this.renderer = new BoardRenderer(this.holder);
    this.input = new BoardInput(this.holder, {
      play: (notation, meta) => this.play(notation, meta),
      undo: () => (this.session.game.game?.undo_allowed ? this.session.undo() : null),
      focusMoveBox: () => this.moveInput.focus(),
      canPlay: () => this.session.game.playing,
    });
    this.unsubscribe = session.subscribe((reason) => this.update(reason));
    this.tick = setInterval(() => this.updateTimer(), 250);
    this.update('mount');
  }

  destroy() {
    this.unsubscribe();
    clearInterval(this.tick);
    clearTimeout(this.pendingTimer);
    this.input.destroy();
    this.renderer.destroy();
  }

  play(notation, meta) {
    setProperty(this.refusal, 'hidden', true);
    return this.session.move(notation, meta);
  }

  async submitMove(event) {
    event.preventDefault();
    const text = this.moveInput.value.trim();
    if (!text) return;
    const accepted = await this.play(text);
    if (accepted && this.moveInput.value.trim() === text) this.moveInput.value = '';
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
    setText(this.moves, String(game.counts.player_moves));
    setData(this.moves, 'moves', String(game.counts.player_moves));
    setText(this.status, game.playing ? (game.onlyUndoLeft ? 'No move left: undo or resign' : 'Playing') : (OUTCOME_TITLES[game.status] ?? game.status));
    setData(this.status, 'gameStatus', game.status ?? '');
    setProperty(this.undoButton, 'hidden', !undoAllowed);
    setProperty(this.undoButton, 'disabled', !game.playing || game.actions.length === 0);
    setProperty(this.resignButton, 'disabled', !game.playing);
    setProperty(this.moveInput, 'disabled', !game.playing);
    this.updateTimer();
    this.updateOutcome(game);
    const refusal = this.session.lastRefusal;
    if (reason === 'refused' && refusal) {
      this.refusal.hidden = false;
      this.refusal.dataset.reason = refusal.reason ?? refusal.code ?? '';
      this.refusal.textContent = `${refusal.move}: ${refusal.message}`;
    } else if (reason === 'move_accepted') {
      setProperty(this.refusal, 'hidden', true);
    }
  }

  updateOutcome(game) {
    if (game.playing || !game.status) {
      setProperty(this.outcome, 'hidden', true);
      return;
    }
    if (this.outcome.dataset.shown === `${game.gameId} ${game.status} ${game.counts.player_moves}`) return;
    this.outcome.dataset.shown = `${game.gameId} ${game.status} ${game.counts.player_moves}`;
    this.outcome.hidden = false;
    this.outcome.dataset.outcome = game.status;
    this.outcome.className = `outcome ${game.status}`;
    replace(this.outcome, h('strong', {}, OUTCOME_TITLES[game.status] ?? game.status),
      ` ${countsText(game.counts.player_moves, game.counts.cards_on_foundations, game.counts.time_ms)}.`,
      game.outcomeMessage && game.outcomeMessage !== `${OUTCOME_TITLES[game.status]}.` ? h('span', { class: 'outcome-message' }, ` ${game.outcomeMessage}`) : null);
  }

  updateTimer() {
    const game = this.session.game;
    const elapsed = game.elapsedMs(Date.now());
    setText(this.timer, formatDuration(elapsed));
    this.timer.dataset.timeMs = String(elapsed);
  }
}

function setText(element, text) {
  if (element.textContent !== text) element.textContent = text;
}

function setData(element, key, value) {
  if (element.dataset[key] !== value) element.dataset[key] = value;
}

function setProperty(element, name, value) {
  if (element[name] !== value) element[name] = value;
}
