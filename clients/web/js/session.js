/**
 * The page's one session with the server: the connection, the room, the game and the race, kept up to date
 * by every server message and nothing else. Pages read it and subscribe to its changes; they send requests
 * through it. It holds no rules: a move goes to the server and the board changes when the answer comes.
 */

import { Connection, IdentityStore, RequestError, serverUrl, takeEarly } from './connection.js';
import { GameState } from './view-state.js';
import { readOverHttp } from './http-api.js';
import { TournamentRaces } from './tournament-race.js';
import { applyMembership, applyProgress, clockOffsetFromCountdown } from './room-state.js';
import { counted, countsText, deltaText, moveWords, ordinal, refusalWords } from './notation.js';
import { progressStatus } from './race-words.js';

const OUTCOME_WORDS = {
  won: 'You won!', resigned: 'You resigned.', stuck: 'No move is left: the game is stuck.',
  timeout: 'Time is up.',
};
const SOLVED_IN_A_RACE = 'You solved the deal.'; // whether it won the race, race_over says

export class Session {
  constructor({ location, storage, announcer }) {
    this.url = serverUrl(location);
    this.identity = new IdentityStore(storage, this.url);
    this.announcer = announcer;
    this.listeners = new Set();
    const kept = this.identity.load();
    this.state = kept?.banned ? 'banned' : kept?.signed_out ? 'signed_out' : 'idle'; // as the last page left it
    this.stateDetail = kept?.banned ? { error: kept.banned } : null;
    this.room = null;
    this.game = new GameState();
    this.raceOver = null;
    this.raceRatings = null; // the rating changes of the race just over (`race_ratings`, right after race_over)
    this.countdown = null;
    this.daily = null;
    this.tournamentRace = null; // the latest `tournament_race`: your next tournament race's room
    this.tournamentRaces = new TournamentRaces(storage); // every room known to be a tournament's race, kept
    this.clockOffsetMs = 0;
    this.lastRefusal = null;
    this.ready = null;
    this.resolveReady = null;
    this.resumedState = null; // after a resumed welcome: the game_state the server sends with it
    this.resolveResumed = null;
    this.connection = takeEarly(this.url) ?? new Connection({ url: this.url, identity: this.identity });
    this.connection.listen({
      onMessage: (message) => this.receive(message),
      onState: (state, detail) => this.connectionState(state, detail),
    });
  }

  get playerId() {
    return this.connection.playerId ?? this.identity.load()?.player_id ?? null;
  }

  get name() {
    return this.identity.load()?.name ?? null;
  }

  get isOpen() {
    return this.state === 'open';
  }

  /** No player on this page: a first visit (no name yet) or a browser signed out. It reads over HTTP (`read`). */
  get anonymous() {
    return !this.name || this.state === 'signed_out';
  }

  /** Connects with `name` (kept for next time); resolves once the server has said welcome. */
  start(name = null) {
    if (name) this.identity.save({ ...(this.identity.load() ?? {}), name });
    if (!this.ready) this.ready = new Promise((resolve) => { this.resolveReady = resolve; });
    if (this.isOpen) this.resolveReady(); // the early connection (boot.js) is open already
    this.connection.start();
    return this.ready;
  }

  /** After a "replaced" close (another tab took over): take the identity back here. */
  reclaim() {
    this.connection.attempt = 0;
    this.connection.start();
  }

  /**
   * A new name is a new player: the server keeps the name an identity was made with (a `hello` with a token
   * resumes it under its old name), so the token is dropped and the next hello makes a new identity.
   */
  rename(name) {
    this.identity.save({ name });
    this.connection.stop();
    this.connection.attempt = 0;
    this.connection.start();
  }

  /** A passkey signed this browser in (`signed_in`): say hello with its session from now on. */
  adoptSignIn(signed) {
    this.identity.save({ name: signed.name, token: signed.token, player_id: signed.player_id });
    this.connection.stop();
    this.connection.attempt = 0;
    this.ready = null;
    this.say(`Signed in as ${signed.name}.`, 'info');
    return this.start();
  }

  /** End this browser's session (or every one): the server closes the connections; this browser forgets it. */
  async signOut(everywhere = false) {
    await this.ask({ type: 'sign_out', everywhere });
    this.connection.stop();
    this.identity.forget();
    this.ready = null;
    this.say(everywhere ? 'Signed out everywhere.' : 'Signed out here.', 'info');
    this.notify('connection');
  }

  subscribe(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  notify(reason) {
    for (const listener of [...this.listeners]) listener(reason);
  }

  say(text, kind) {
    this.announcer?.say(text, kind);
  }

  connectionState(state, detail) {
    const was = this.state;
    this.state = state;
    this.stateDetail = detail;
    this.resolveResumed?.(null); // a connection that closed before its state came: nothing will
    this.resolveResumed = null;
    this.resumedState = null;
    if (state === 'open' && detail?.resumed) {
      this.resumedState = new Promise((resolve) => { this.resolveResumed = resolve; });
    }
    if (state === 'open') {
      this.resolveReady?.();
      if (was === 'reconnecting') this.say('Connected again.', 'info');
    } else if (state === 'reconnecting' && was === 'open') {
      if (detail?.restart) this.say('The server is restarting: reconnecting…', 'info');
      else this.say('Connection lost: reconnecting…', 'error');
    } else if (state === 'signed_out') {
      this.say('This browser was signed out: sign in with a passkey, or play under another name.', 'error');
    } else if (state === 'banned') {
      this.say(`A moderator banned this player: ${detail?.error ?? ''}`, 'error');
    } else if (state === 'replaced') {
      this.say('This player was opened in another tab or window; this page stopped.', 'error');
    }
    this.notify('connection');
  }

  /** Sends a request; an error reply is announced (with its message) and rethrown for the caller. */
  async request(message) {
    try {
      return await this.connection.request(message);
    } catch (error) {
      this.say(error instanceof RequestError ? error.message : `Not sent: ${error.message}`, 'error');
      throw error;
    }
  }

  /** Quiet variant: the caller shows the error where it belongs (a form, a page). */
  ask(message) {
    return this.connection.request(message);
  }

  /** A read of public things (boards, tournaments, dailies): on the socket when it is open, else over HTTP, so a
   * first visit reads them before it has a name. */
  read(message) {
    return this.isOpen ? this.ask(message) : readOverHttp(this.url, message);
  }

  // ------------------------------------------------------------------ playing

  /**
   * Sends a move (notation text); the board changes only when the server accepts it. `source` and `count`
   * (the pile and cards it takes, when the page knows them) mark those cards pending meanwhile.
   */
  move(notation, { source = null, count = 1 } = {}) {
    const game = this.game;
    if (!game.gameId) return Promise.resolve(null);
    this.lastRefusal = null;
    const { id, reply } = this.connection.begin({ type: 'move', game_id: game.gameId, move: notation });
    if (id !== null) game.addPending(id, { notation, source, count });
    this.notify('pending');
    return reply.then(
      (answer) => answer,
      (error) => {
        game.settle(id);
        this.lastRefusal = error instanceof RequestError ? { move: notation, code: error.code, reason: error.reason, message: error.message } : null;
        this.say(this.lastRefusal ? refusalWords(this.lastRefusal) : `${notation} not sent: ${error.message}`, 'refusal');
        this.notify('refused');
        return null;
      },
    );
  }

  /** Pile id -> cards in flight from its top, for the renderer. */
  pendingSources() {
    const sources = new Map();
    for (const { source, count } of this.game.pending.values()) {
      if (source) sources.set(source, (sources.get(source) ?? 0) + count);
    }
    return sources;
  }

  undo() {
    return this.request({ type: 'undo', game_id: this.game.gameId }).catch(() => null);
  }

  resign() {
    return this.request({ type: 'resign', game_id: this.game.gameId }).catch(() => null);
  }

  // ------------------------------------------------------------------ what the server says

  receive(message) {
    const handler = this[`on_${message.type}`];
    if (handler) handler.call(this, message);
    this.notify(message.type);
  }

  on_room(message) {
    const previous = this.room;
    this.room = message.room;
    if (previous?.code !== message.room.code) {
      this.raceOver = null;
      this.raceRatings = null;
      this.countdown = null;
    }
    if (message.room.status === 'countdown' && message.room.starts_at) {
      this.countdown = { starts_at: message.room.starts_at };
    } else if (message.room.status === 'lobby') {
      this.countdown = null; // a quick race whose countdown stopped (a player left) waits again
    }
  }

  /** Your next tournament race is formed (app.js opens its room): kept, so its room knows it is a tournament's. */
  on_tournament_race(message) {
    this.tournamentRace = message;
    this.tournamentRaces.remember(message);
    this.say(`Your next tournament race is ready: room ${message.code}.`, 'race');
  }

  /** A moderator replaced this player's name: the app asks for another (`js/moderation.js`). */
  on_name_replaced(message) {
    this.nameReplaced = message.name;
    this.identity.save({ name: message.name });
  }

  on_name_chosen(message) {
    this.nameReplaced = null;
    this.identity.save({ name: message.name });
  }

  on_left_room() {
    this.room = null;
    this.raceOver = null;
  }

  on_member_joined(message) {
    this.room = applyMembership(this.room, message);
    if (message.code === this.room?.code) {
      this.say(`${message.member.name} joined${message.member.role === 'spectator' ? ' to watch' : ''}.`, 'race');
    }
  }

  on_member_left(message) {
    const who = this.room?.members.find((member) => member.player_id === message.player_id);
    this.room = applyMembership(this.room, message);
    if (who && who.player_id !== this.playerId) this.say(`${who.name} left.`, 'race');
  }

  on_member_connection(message) {
    this.room = applyMembership(this.room, message);
  }

  on_countdown(message) {
    const offset = clockOffsetFromCountdown(message);
    if (offset !== null) this.clockOffsetMs = offset;
    this.countdown = message;
    this.raceOver = null;
    this.say(`The race starts in ${Math.round(message.seconds)} seconds.`, 'race');
  }

  on_race_started(message) {
    this.game.load(message.game);
    this.countdown = null;
    this.say('Go! The race has started.', 'race');
  }

  on_daily_started(message) {
    this.daily = message;
    this.game.load(message.game);
  }

  on_move_accepted(message) {
    const before = this.game.view;
    const result = this.game.accept(message);
    if (result === 'gap') {
      this.ask({ type: 'get_state' }).catch(() => null); // an answer was lost: take the whole view again
      return;
    }
    if (result !== 'applied') return;
    this.updateOwnProgress(message.status, message.cards_on_foundations, message.player_moves, message.time_ms);
    const home = message.autoplay.length ? `; then ${counted(message.autoplay.length, 'card')} went home` : '';
    const what = message.move ? moveWords(message.move.move, before) : 'Undo: your last move is taken back';
    this.say(`${what[0].toUpperCase()}${what.slice(1)}${home}. Move ${message.player_moves}.`, 'move');
    if (message.only_undo_left) this.say('No move is left: undo or resign.', 'refusal');
  }

  /** The server sends a player's progress to the others only (it is in the player's own replies): keep our row. */
  updateOwnProgress(status, cards, moves, timeMs) {
    const room = this.room;
    const me = room?.members.find((member) => member.player_id === this.playerId);
    if (!room || !me || this.game.game?.room_code !== room.code) return;
    this.room = applyProgress(room, {
      code: room.code,
      progress: { player_id: me.player_id, name: me.name, status, cards_on_foundations: cards, moves, time_ms: timeMs },
    });
  }

  on_game_over(message) {
    if (!this.game.finish(message)) return;
    this.updateOwnProgress(message.outcome, message.cards_on_foundations, message.player_moves, message.time_ms);
    const racing = message.outcome === 'won' && (this.room?.members ?? []).filter((member) => member.role === 'player').length > 1;
    const words = racing ? SOLVED_IN_A_RACE : message.message || OUTCOME_WORDS[message.outcome] || message.outcome;
    this.say(`${words} ${countsText(message.player_moves, message.cards_on_foundations, message.time_ms)}.`, 'race');
  }

  on_progress(message) {
    this.room = applyProgress(this.room, message);
    const row = message.progress;
    if (row.status !== 'playing' && row.player_id !== this.playerId) {
      this.say(`${row.name}: ${progressStatus(row)}, ${counted(row.cards_on_foundations, 'card')} home in ${counted(row.moves, 'move')}.`, 'race');
    }
  }

  on_race_over(message) {
    if (this.room && message.code === this.room.code) {
      this.raceOver = message;
      this.room = { ...this.room, seed: message.seed, status: 'finished' };
      const winner = message.standings.find((row) => row.rank === 1);
      const mine = message.standings.find((row) => row.player_id === this.playerId);
      const place = mine && message.standings.length > 1
        ? ` You are ${ordinal(mine.rank)} of ${message.standings.length}${message.standings.filter((row) => row.rank === mine.rank).length > 1 ? ' (a tie)' : ''}.` : '';
      this.say(`The race is over.${winner ? ` First: ${winner.name}.` : ''}${place}`, 'race');
    }
  }

  /** A member of our finished room opened the series' next room: the room points to it (a Join button shows). */
  on_series_invite(message) {
    if (this.room && message.code === this.room.code) {
      this.room = { ...this.room, next_code: message.next_code };
      this.say(`${message.by} opened the next race: join it with “Join the next race”.`, 'race');
    }
  }

  /** Race again (after race_over): opens the series' next room, or joins it; resolves to that room's code. */
  async raceAgain() {
    const reply = await this.request({ type: 'race_again' });
    return reply.room.code;
  }

  /** The variant's public quick race that is filling; resolves to its room's code. */
  async quickRace(variant) {
    const reply = await this.ask({ type: 'quick_race', variant });
    return reply.room.code;
  }

  /** "Play now": the variant's quick race, and the house bot at once when nobody was waiting in it (and this
   * server has one); resolves to the room's code. */
  async playNow(variant) {
    const waiting = await this.ask({ type: 'get_quick_races' }).catch(() => null);
    const code = await this.quickRace(variant);
    const race = waiting?.races.find((item) => item.variant === variant);
    if (race && !race.players && waiting.bot_after_s !== null) {
      await this.raceBot().then((reply) => this.say(`Nobody was waiting: ${reply.name} races you.`, 'race'), () => null);
    }
    return code;
  }

  /** The house bot to the quick race we wait in alone (`race_bot`). */
  raceBot() {
    return this.ask({ type: 'race_bot' });
  }

  /** A hint for our running game: `{move, finish}` (refused in ranked races and dailies: `no_hints`). */
  hint() {
    return this.ask({ type: 'get_hint', game_id: this.game.gameId });
  }
  on_race_ratings(message) {
    if (this.room && message.code === this.room.code) {
      this.raceRatings = message;
      const mine = message.changes.find((change) => change.player_id === this.playerId);
      if (mine) this.say(`Your rating: ${mine.after.rating} (${deltaText(mine.delta)}).`, 'race');
    }
  }

  on_game_state(message) {
    if (message.room) this.on_room({ room: message.room });
    else this.room = null;
    if (message.game) this.game.load(message.game);
    else this.game = new GameState();
    if (message.id === undefined || message.id === null) {
      this.resolveResumed?.(message);
      this.resolveResumed = null;
    }
  }

  /**
   * The room the server holds us in (`{ room }`). After a resumed welcome the server sends our whole state with
   * it, and every room message since keeps `this.room` current: no need to ask (a first visit's board comes a
   * round trip and a second whole redraw sooner). Otherwise asked for (`get_state`).
   */
  async currentState() {
    if (this.resumedState && (await this.resumedState)) return { room: this.room };
    return this.ask({ type: 'get_state' });
  }

  on_error(message) {
    if (message.id === undefined || message.id === null) this.say(message.message, 'error');
  }
}

