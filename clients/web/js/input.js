/**
 * Input on the board: click or tap a card then a destination; drag a card (and the run above it) with
 * Pointer Events (mouse, touch and pen alike; HTML5 drag and drop does not work on phones); double-click or
 * double-tap sends a card to its foundation; the keyboard moves focus between piles and picks a
 * destination. Every gesture ends in `session.move(notation)`: whether it is legal is the server's call.
 */

import { moveNotation, parsePileId, toFoundation } from './notation.js';

const DRAG_THRESHOLD_PX = 6;
const DOUBLE_TAP_MS = 500; // the usual double-click time of desktop systems; 350 lost double taps on a busy page

export const KEY_HELP = Object.freeze([
  ['Tab', 'Reach the board, the Move box and the buttons'],
  ['\u2190 \u2192', 'Focus the previous or next pile'],
  ['Home / End', 'First or last pile'],
  ['1 \u2013 9, 0', 'Focus column 1 to 10'],
  ['Enter or Space', 'Pick up the focused pile\u2019s top card, or put the picked cards here'],
  ['\u2191 \u2193', 'With cards picked from a column: take one card more or fewer'],
  ['F', 'Send the picked (or focused) card to its foundation'],
  ['C', 'Send the picked (or focused) card to a free cell'],
  ['Esc', 'Put the picked cards back'],
  ['U', 'Undo (when the room allows it)'],
  ['M', 'Go to the Move box (type notation like 3a or t3-c1, then Enter)'],
]);

export class BoardInput {
  /** `play(notation, {source, count})` sends a move; `undo()`; `focusMoveBox()`; `picked(selection)` is told
   * each pick-up and each put-back (null), for the screen reader. */
  constructor(container, { play, undo, focusMoveBox, canPlay, picked = () => {} }) {
    this.container = container;
    this.play = play;
    this.undo = undo;
    this.focusMoveBox = focusMoveBox;
    this.canPlay = canPlay;
    this.picked = picked;
    this.selection = null; // {pile, count}
    this.drag = null;
    this.lastTap = null;
    this.handlers = {
      pointerdown: (event) => this.pointerDown(event),
      pointermove: (event) => this.pointerMove(event),
      pointerup: (event) => this.pointerUp(event),
      pointercancel: () => this.cancelDrag(),
      keydown: (event) => this.keyDown(event),
      focusin: (event) => this.focusIn(event),
    };
    for (const [name, handler] of Object.entries(this.handlers)) container.addEventListener(name, handler);
  }

  destroy() {
    for (const [name, handler] of Object.entries(this.handlers)) this.container.removeEventListener(name, handler);
    this.cancelDrag();
  }

  /** After a redraw: put the marks back (the selected cards, the focus). */
  refresh() {
    this.container.querySelectorAll('.selected').forEach((node) => node.classList.remove('selected'));
    if (!this.selection) return;
    const pile = this.pileElement(this.selection.pile);
    const cards = pile ? [...pile.querySelectorAll('.card')] : [];
    if (!cards.length || cards.length < this.selection.count) {
      this.selection = null;
      return;
    }
    pile.classList.add('selected');
    cards.slice(cards.length - this.selection.count).forEach((card) => card.classList.add('selected'));
  }

  pileElement(id) {
    return this.container.querySelector(`[data-pile="${id}"]`);
  }

  select(pile, count) {
    const had = this.selection;
    this.selection = pile ? { pile, count } : null;
    this.refresh();
    if (this.selection || had) this.picked(this.selection);
  }

  /** Lets go of the picked cards on the way to a move (the move is announced, not a put-back). */
  drop() {
    this.selection = null;
    this.refresh();
  }

  /**
   * Sends a move. The picked cards keep their mark until the answer redraws the board (they are marked
   * pending only when the answer is slow): one redraw per move instead of two.
   */
  send(source, count, target) {
    this.selection = null; // the move, or nothing: either way no "put back" to announce
    if (!this.canPlay() || source === target) {
      this.refresh();
      return;
    }
    const from = parsePileId(source);
    if (!from || from.zone === 'foundation') {
      this.refresh();
      return;
    }
    this.play(moveNotation(source, target, count), { source, count });
  }

  sendHome(source) {
    this.drop();
    if (!this.canPlay() || !source || source.startsWith('f')) return;
    this.play(toFoundation(source), { source, count: 1 });
  }

  sendToCell(source) {
    this.drop();
    if (!this.canPlay() || !source || !source.startsWith('t')) return;
    this.play(`${source}-c`, { source, count: 1 });
  }

  // ------------------------------------------------------------------ pointer

  cardAt(event) {
    const card = event.target.closest?.('.card');
    const pile = event.target.closest?.('[data-pile]');
    return { card: card && pile?.contains(card) ? card : null, pile };
  }

  pointerDown(event) {
    if (event.button !== 0 || !this.canPlay()) return;
    const { card, pile } = this.cardAt(event);
    if (!pile) return;
    const id = pile.dataset.pile;
    const cards = [...pile.querySelectorAll('.card')];
    const index = card ? cards.indexOf(card) : -1;
    const movable = card && !card.classList.contains('back') && !id.startsWith('f');
    this.drag = {
      pointerId: event.pointerId, x: event.clientX, y: event.clientY, pile: id, started: false,
      count: movable ? cards.length - index : 0, cards: movable ? cards.slice(index) : [], ghost: null,
    };
    if (movable) {
      event.preventDefault();
      pile.setPointerCapture?.(event.pointerId);
    }
  }

  pointerMove(event) {
    const drag = this.drag;
    if (!drag || drag.pointerId !== event.pointerId || !drag.count) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (!drag.started) {
      if (Math.hypot(dx, dy) < DRAG_THRESHOLD_PX) return;
      drag.started = true;
      drag.ghost = this.makeGhost(drag.cards);
      drag.cards.forEach((card) => card.classList.add('dragging'));
    }
    drag.ghost.style.transform = `translate(${dx}px, ${dy}px)`;
    this.markTarget(this.pileUnder(event));
  }

  makeGhost(cards) {
    const first = cards[0].getBoundingClientRect();
    const ghost = document.createElement('div');
    ghost.className = 'drag-ghost';
    ghost.setAttribute('aria-hidden', 'true');
    ghost.style.left = `${first.left}px`;
    ghost.style.top = `${first.top}px`;
    for (const card of cards) {
      const rect = card.getBoundingClientRect();
      const copy = card.cloneNode(true);
      copy.removeAttribute('role');
      copy.removeAttribute('aria-label');
      copy.removeAttribute('data-card');
      copy.style.position = 'absolute';
      copy.style.left = `${rect.left - first.left}px`;
      copy.style.top = `${rect.top - first.top}px`;
      copy.style.width = `${rect.width}px`;
      copy.style.height = `${rect.height}px`;
      ghost.append(copy);
    }
    document.body.append(ghost);
    return ghost;
  }

  pileUnder(event) {
    const under = document.elementFromPoint(event.clientX, event.clientY);
    const pile = under?.closest?.('[data-pile]');
    return pile && this.container.contains(pile) ? pile : null;
  }

  markTarget(pile) {
    this.container.querySelectorAll('.drop-target').forEach((node) => node.classList.remove('drop-target'));
    if (pile && pile.dataset.pile !== this.drag?.pile) pile.classList.add('drop-target');
  }

  pointerUp(event) {
    const drag = this.drag;
    if (!drag || drag.pointerId !== event.pointerId) return;
    if (drag.started) {
      const target = this.pileUnder(event);
      this.cancelDrag();
      if (target && target.dataset.pile !== drag.pile) this.send(drag.pile, drag.count, target.dataset.pile);
      return;
    }
    this.cancelDrag();
    this.tap(drag, event.timeStamp);
  }

  cancelDrag() {
    const drag = this.drag;
    this.drag = null;
    if (!drag) return;
    drag.ghost?.remove();
    drag.cards.forEach((card) => card.classList.remove('dragging'));
    this.markTarget(null);
  }

  /**
   * A click or tap: pick up, put down, or (twice quickly on the same card) send it home. `at`: when the pointer
   * went up (the event's own time, on performance.now()'s clock), not when this runs: a page busy drawing the board
   * or a slow phone must not turn a double tap into two single ones.
   */
  tap(drag, at = performance.now()) {
    const now = at;
    const double = this.lastTap && this.lastTap.pile === drag.pile && this.lastTap.count === drag.count
      && drag.count === 1 && now - this.lastTap.at < DOUBLE_TAP_MS;
    this.lastTap = { pile: drag.pile, count: drag.count, at: now };
    if (double) {
      this.lastTap = null;
      this.sendHome(drag.pile);
      return;
    }
    const selection = this.selection;
    if (selection && selection.pile !== drag.pile) {
      this.send(selection.pile, selection.count, drag.pile);
      this.lastTap = null;
    } else if (selection && selection.count === drag.count) {
      this.select(null);
    } else if (drag.count) {
      this.select(drag.pile, drag.count);
    }
  }

  // ------------------------------------------------------------------ keyboard

  focusIn(event) {
    const pile = event.target.closest?.('[data-pile]');
    if (!pile || event.target !== pile) return;
    for (const other of this.container.querySelectorAll('[data-pile]')) {
      const tabIndex = other === pile ? 0 : -1;
      if (other.tabIndex !== tabIndex) other.tabIndex = tabIndex;
    }
  }

  focusPile(pile) {
    if (!pile) return;
    pile.focus();
  }

  keyDown(event) {
    const pile = event.target.closest?.('[data-pile]');
    if (!pile || event.altKey || event.ctrlKey || event.metaKey) return;
    const order = [...this.container.querySelectorAll('[data-pile]')];
    const at = order.indexOf(pile);
    const id = pile.dataset.pile;
    const key = event.key;
    let handled = true;
    if (key === 'ArrowRight') this.focusPile(order[(at + 1) % order.length]);
    else if (key === 'ArrowLeft') this.focusPile(order[(at - 1 + order.length) % order.length]);
    else if (key === 'Home') this.focusPile(order[0]);
    else if (key === 'End') this.focusPile(order.at(-1));
    else if (/^[0-9]$/.test(key)) this.focusPile(this.pileElement(`t${key === '0' ? 10 : key}`));
    else if (key === 'Enter' || key === ' ') this.activate(pile);
    else if (key === 'ArrowUp' || key === 'ArrowDown') this.resize(key === 'ArrowUp' ? 1 : -1);
    else if (key === 'f' || key === 'F') this.sendHome(this.selection?.count === 1 ? this.selection.pile : id);
    else if (key === 'c' || key === 'C') this.sendToCell(this.selection?.count === 1 ? this.selection.pile : id);
    else if (key === 'Escape') this.select(null);
    else if (key === 'u' || key === 'U') this.undo();
    else if (key === 'm' || key === 'M') this.focusMoveBox();
    else handled = false;
    if (handled) event.preventDefault();
  }

  activate(pile) {
    const id = pile.dataset.pile;
    if (this.selection) {
      if (this.selection.pile === id) this.select(null);
      else this.send(this.selection.pile, this.selection.count, id);
      return;
    }
    const top = [...pile.querySelectorAll('.card')].at(-1);
    if (top && !top.classList.contains('back') && !id.startsWith('f')) this.select(id, 1);
  }

  resize(step) {
    const selection = this.selection;
    if (!selection || !selection.pile.startsWith('t')) return;
    const cards = [...this.pileElement(selection.pile).querySelectorAll('.card')];
    const faceUp = cards.filter((card) => !card.classList.contains('back')).length;
    this.select(selection.pile, Math.max(1, Math.min(faceUp, selection.count + step)));
  }
}
