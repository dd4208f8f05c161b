/**
 * The view state of one game: the player view the server sent last, with each `move_accepted`'s `changes`
 * put in, in order, exactly as docs/protocol.md says (the Python twin is
 * `freecell_arena.engine.view.apply_view_changes`).
 *
 * The board changes only by the server's messages. A move the player made waits in `pending` until the
 * server answers: applying it early and again on the echo is how clients lose cards. Each accepted action
 * carries its index in the game's action log, so an echo already contained in a fresh whole view (after a
 * reconnect) is skipped, and a gap (an answer lost while the socket was down) asks for the whole view again.
 */

export class ViewError extends Error {}

/** The view after `changes`: a new object, `view` untouched. */
export function applyViewChanges(view, changes) {
  if (!view || typeof view !== 'object') throw new ViewError('there is no view to change');
  if (!changes || typeof changes !== 'object') throw new ViewError('changes must be an object');
  const updated = { ...view };
  const tableau = changes.tableau ?? {};
  const keys = Object.keys(tableau);
  if (keys.length) {
    if (typeof tableau !== 'object' || Array.isArray(tableau)) {
      throw new ViewError('changes.tableau must be an object of columns by index');
    }
    const columns = [...view.tableau];
    for (const key of keys) {
      const index = /^\d+$/.test(key) ? Number(key) : -1;
      if (index < 0 || index >= columns.length) {
        throw new ViewError(`changes.tableau names column ${JSON.stringify(key)}; the view has ${columns.length}`);
      }
      if (!Array.isArray(tableau[key])) throw new ViewError(`changes.tableau[${key}] must be a list`);
      columns[index] = [...tableau[key]];
    }
    updated.tableau = columns;
  }
  for (const part of ['cells', 'foundations', 'cards_on_foundations']) {
    if (part in changes) updated[part] = changes[part];
  }
  return updated;
}

/** The cards a pile shows, deepest first: a column's cards, a cell's card, a foundation's top card. */
export function pileCards(view, zone, index) {
  if (!view) return [];
  if (zone === 'tableau') return view.tableau[index] ?? [];
  if (zone === 'cell') return view.cells[index] ? [view.cells[index]] : [];
  const slot = view.foundations[index];
  return slot && slot.cards ? [slot.top] : [];
}

export const FINISHED = Object.freeze(['won', 'resigned', 'stuck', 'timeout']);

/** The four counts the server sends with a whole game, each accepted move and `game_over`. */
function countsOf(source) {
  const { player_moves, single_card_moves, cards_on_foundations, time_ms } = source;
  return { player_moves, single_card_moves, cards_on_foundations, time_ms };
}

export class GameState {
  constructor() {
    this.game = null;
    this.view = null;
    this.actions = [];
    this.counts = { player_moves: 0, single_card_moves: 0, cards_on_foundations: 0, time_ms: 0 };
    this.status = null;
    this.onlyUndoLeft = false;
    this.outcome = null;
    this.outcomeMessage = null;
    this.lastMove = null;
    this.pending = new Map();
    this.receivedAt = 0;
  }

  get gameId() {
    return this.game?.game_id ?? null;
  }

  get playing() {
    return this.status === 'playing';
  }

  /** A whole game from `race_started`, `daily_started` or `game_state`: replaces everything held. */
  load(game, now = Date.now()) {
    this.game = game;
    this.view = game.view;
    this.actions = [...game.actions];
    this.counts = countsOf(game);
    this.status = game.status;
    this.onlyUndoLeft = false;
    if (!FINISHED.includes(game.status)) {
      this.outcome = null;
      this.outcomeMessage = null;
    } else {
      this.outcome = game.status;
    }
    this.lastMove = null;
    this.pending.clear();
    this.receivedAt = now;
  }

  /** Remembers a move sent under request id `id`; it changes nothing until the server accepts it. */
  addPending(id, move) {
    this.pending.set(id, move);
  }

  /** The request `id` was answered (accepted or refused) or lost: it is no longer pending. */
  settle(id) {
    this.pending.delete(id);
  }

  /**
   * Puts one `move_accepted` into the view. Returns "applied", "stale" (already in the view: skipped),
   * "gap" (an earlier action is missing: ask for the whole state) or "foreign" (another game's).
   */
  accept(message, now = Date.now()) {
    if (message.id !== undefined && message.id !== null) this.settle(message.id);
    if (!this.game || message.game_id !== this.game.game_id) return 'foreign';
    if (message.index < this.actions.length) return 'stale';
    if (message.index > this.actions.length) return 'gap';
    this.view = applyViewChanges(this.view, message.changes);
    this.actions.push(message.action);
    this.counts = countsOf(message);
    this.status = message.status;
    this.onlyUndoLeft = Boolean(message.only_undo_left);
    this.lastMove = message;
    this.receivedAt = now;
    return 'applied';
  }

  /** `game_over` for this game: the outcome and the final counts. */
  finish(message) {
    if (!this.game || message.game_id !== this.game.game_id) return false;
    this.status = message.outcome;
    this.outcome = message.outcome;
    this.outcomeMessage = message.message;
    this.onlyUndoLeft = false;
    this.counts = countsOf(message);
    this.pending.clear();
    return true;
  }

  /**
   * The game's clock: the server's last count (`time_ms`, with the whole game or the last accepted move)
   * plus the time since it arrived, while playing; the final time once over. Counting from the server's
   * own figure needs no clock offset: a skewed computer clock shows the right time.
   */
  elapsedMs(now = Date.now()) {
    if (!this.game) return 0;
    if (!this.playing) return this.counts.time_ms;
    return this.counts.time_ms + Math.max(0, now - this.receivedAt);
  }
}
