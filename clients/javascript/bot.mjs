#!/usr/bin/env node
/**
 * An example bot in JavaScript: no rules engine and no dependency. It reads its board from the server's player
 * view (the whole view with `race_started`, each `move_accepted`'s `changes` put in), proposes moves in an order of
 * preference (cards home, builds, free cells), and lets the server judge them: a refused move (`illegal_move`)
 * changes nothing, so it tries the next. It never proposes the same move twice from the same position, and
 * resigns when it has nothing new to try. Requests are paced by the rate `welcome` announces. A lost connection
 * does not end its race: it says hello again with the token its first `welcome` gave, so the server seats it where
 * it was (at once after a server restart's 1012, else with a backoff; see Reconnect in client.mjs), and gives up
 * after `--give-up-after` seconds (60) of failed attempts in a row.
 *
 *   node --experimental-websocket clients/javascript/bot.mjs ws://127.0.0.1:8765/ --create freecell --players 2
 *   node --experimental-websocket clients/javascript/bot.mjs ws://127.0.0.1:8765/ --room ABCD2345
 *   node --experimental-websocket clients/javascript/bot.mjs ws://127.0.0.1:8765/ --quick chinese-freecell
 *
 * (Node 22 and later have the WebSocket without the flag; with the `ws` package installed, Node 20 needs no flag
 * either.) Installed from npm, the same bot is the `freecell-arena-js-bot` command. docs/bots.md says more.
 */

import { ArenaError, FrameTimeout, Reconnect, ReconnectGaveUp } from './client.mjs';

const RANKS = 'A23456789TJQK';

function rank(card) {
  return RANKS.indexOf(card[0]) + 1;
}

/** The view after a `move_accepted`'s `changes` (a new object; the old one is left as it was). */
export function applyChanges(view, changes) {
  const next = { ...view, tableau: [...view.tableau] };
  for (const [index, column] of Object.entries(changes.tableau ?? {})) next.tableau[Number(index)] = column;
  for (const part of ['cells', 'foundations', 'cards_on_foundations']) {
    if (part in changes) next[part] = changes[part];
  }
  return next;
}

/** Moves worth trying on `view`, best first, in the structured form (the server fills in a cell or foundation). */
export function candidates(view) {
  const tops = view.tableau.map((column) => (column.length ? column[column.length - 1] : null));
  const sources = [
    ...tops.map((card, index) => ({ card, from: 'tableau', from_index: index, depth: view.tableau[index].length })),
    ...view.cells.map((card, index) => ({ card, from: 'cell', from_index: index, depth: 1 })),
  ].filter((source) => source.card);
  const emptyColumns = tops.flatMap((card, index) => (card === null && !view.tableau[index].length ? [index] : []));
  const freeCell = view.cells.includes(null);
  const moves = [];
  const add = (source, to, toIndex = null) => moves.push({ from: source.from, from_index: source.from_index, to, to_index: toIndex, count: 1 });
  for (const source of sources) {
    const home = view.foundations.some((pile) => pile.suit === source.card[1] && pile.cards % 13 === rank(source.card) - 1);
    if (home) add(source, 'foundation');
  }
  const builds = (source) => tops.forEach((top, index) => {
    if (top && index !== source.from_index && rank(top) === rank(source.card) + 1) add(source, 'tableau', index);
  });
  sources.filter((source) => source.from === 'cell').forEach(builds);
  sources.filter((source) => source.from === 'tableau' && source.depth > 1).forEach(builds);
  if (freeCell) sources.filter((source) => source.from === 'tableau' && source.depth > 1).forEach((source) => add(source, 'cell'));
  for (const index of emptyColumns) {
    sources.filter((source) => source.from === 'cell' || source.depth > 1).forEach((source) => add(source, 'tableau', index));
  }
  return moves;
}

/** A bot's memory: which moves it already tried from which position. */
export class TidyBot {
  constructor() {
    this.tried = new Map();
  }

  choose(view) {
    const tried = this.triedFrom(view);
    const move = candidates(view).find((candidate) => !tried.has(JSON.stringify(candidate)));
    if (move) tried.add(JSON.stringify(move));
    return move ?? null;
  }

  /** Forgets that `move` was tried from `view`: its answer was lost with the connection, so it may not have counted. */
  forget(view, move) {
    this.triedFrom(view).delete(JSON.stringify(move));
  }

  triedFrom(view) {
    const position = JSON.stringify([view.tableau, view.cells]);
    const tried = this.tried.get(position) ?? new Set();
    this.tried.set(position, tried);
    return tried;
  }
}

const EVENT_TIMEOUT_MS = 120_000;
const START_TIMEOUT_MS = 300_000;
const FINISHED = ['won', 'resigned', 'stuck', 'timeout'];

/**
 * One race, played on as many connections as it takes: `create` a room (`{variant, seed, players, countdown}`; the
 * host starts once `players` are in), join `room`, or `quick` a variant's quick race. It keeps what the server said
 * (the room, the game's view, the outcome), so `play` on a new connection of the same player picks up where the
 * last one left off, from the `game_state` a resumed `welcome` brings. A move whose answer was lost with its
 * connection is never guessed at: the view the server sends again says whether it counted.
 */
export class RacePlayer {
  constructor({ create = null, room = null, quick = null, maxMoves = 500, startTimeoutMs = START_TIMEOUT_MS, log = () => {} } = {}) {
    this.options = { create, quick, maxMoves, startTimeoutMs };
    this.log = log;
    this.code = room; // the room this player sits in, or is to join
    this.announced = false; // said `room CODE` (once, and again only for a new room)
    this.room = null; // the room as last seen (null: not seated in it on this connection's server state)
    this.playerId = null;
    this.game = null; // { gameId, view, moves } once the race started
    this.outcome = null;
    this.over = null; // the race's race_over
    this.bot = new TidyBot();
    this.connections = 0;
    this.startBy = null;
    this.observer = (frame) => this.observe(frame); // the `onEvent` of every request: nothing the server says is lost
  }

  /** Plays on `connection` (said hello already) to the race's standings; resolves with the RaceResult. */
  async play(connection, welcome = connection.welcome) {
    this.connections += 1;
    this.playerId = welcome.player_id;
    if (welcome.resumed) {
      await this.until(connection, (frame) => frame?.type === 'game_state'); // observe() adopts it
      const game = this.game ? `, game ${this.outcome ?? 'playing'} after ${this.game.moves} moves` : '';
      this.log(`resumed${this.room ? ` in room ${this.room.code}` : ''}${game}`);
    }
    if (this.game === null) {
      await this.enterRoom(connection);
      await this.waitForStart(connection);
    }
    if (this.outcome === null) await this.playGame(connection);
    await this.until(connection, () => this.over !== null);
    const { code, outcome, over: { standings, seed } } = this;
    return { code, outcome, moves: this.game?.moves ?? 0, standings, seed, reconnects: this.connections - 1 };
  }

  /** Sits in the room: already (resumed into it), by its code, or a new one (created, or a quick race). */
  async enterRoom(connection) {
    if (this.room !== null && this.seated(this.room)) return;
    const { create, quick } = this.options;
    let joined = null;
    if (this.code !== null) {
      try {
        joined = await connection.request({ type: 'join_room', code: this.code }, this.observer);
      } catch (error) {
        // the bot's own lobby emptied and vanished while it was away, or its quick race filled without it
        const gone = error instanceof ArenaError && ['unknown_room', 'room_started', 'room_full'].includes(error.code);
        if (!gone || !(create || quick)) throw error;
        this.log(`room ${this.code} is gone (${error.code}); entering another`);
      }
    }
    if (joined === null && create) {
      const request = { type: 'create_room', variant: create.variant, options: { countdown_s: create.countdown ?? 1 } };
      if (create.seed !== undefined) request.seed = String(create.seed);
      joined = await connection.request(request, this.observer);
    } else if (joined === null) {
      joined = await connection.request({ type: 'quick_race', variant: quick }, this.observer);
    }
    if (!this.announced || joined.room.code !== this.code) this.log(`room ${joined.room.code}`);
    this.announced = true;
    this.code = joined.room.code;
    this.room = joined.room;
  }

  /** Waits for the race to start (the host starts it once enough players sit), within `startTimeoutMs` in all. */
  async waitForStart(connection) {
    const { create, startTimeoutMs } = this.options;
    this.startBy ??= Date.now() + startTimeoutMs;
    let startSent = false;
    while (this.game === null) {
      const room = this.room;
      const players = room.members.filter((member) => member.role === 'player').length;
      if (create && !startSent && room.status === 'lobby' && room.host_id === this.playerId && players >= (create.players ?? 1)) {
        await connection.request({ type: 'start_race' }, this.observer);
        startSent = true;
        continue;
      }
      const left = this.startBy - Date.now();
      if (left <= 0) {
        throw new Error(`room ${room.code}: the race did not start within ${startTimeoutMs / 1000} s (${players} players seated, ${room.status})`);
      }
      try {
        this.observe(await connection.frame(left));
      } catch (error) {
        if (!(error instanceof FrameTimeout)) throw error;
      }
    }
  }

  /** Plays the game to its end: the bot's moves while it has new ones, then resigns. */
  async playGame(connection) {
    while (this.outcome === null) {
      const { view, moves } = this.game;
      const move = moves < this.options.maxMoves ? this.bot.choose(view) : null;
      if (move === null) {
        await this.resign(connection);
        break;
      }
      let accepted;
      try {
        accepted = await connection.request({ type: 'move', move }, this.observer);
      } catch (error) {
        const refused = error instanceof ArenaError && error.code === 'illegal_move';
        if (!refused) this.bot.forget(view, move);
        if (error instanceof ArenaError && error.code === 'game_not_running') break; // its time ran out: game_over says how
        if (!refused) throw error;
        continue;
      }
      this.game.view = applyChanges(view, accepted.changes);
      this.game.moves = accepted.player_moves;
      if (accepted.status !== 'playing') this.outcome = accepted.status;
    }
    await this.until(connection, () => this.outcome !== null);
    this.log(`game over: ${this.outcome} after ${this.game.moves} moves`);
  }

  async resign(connection) {
    try {
      this.observe(await connection.request({ type: 'resign' }, this.observer));
    } catch (error) {
      if (!(error instanceof ArenaError && error.code === 'game_not_running')) throw error;
    }
  }

  /**
   * Reads (and observes) frames until `done(frame)` holds, or at once if `done(null)` does already. A server silent
   * for EVENT_TIMEOUT_MS rejects with FrameTimeout: a connection worth replacing.
   */
  async until(connection, done) {
    if (done(null)) return;
    for (;;) {
      const frame = await connection.frame(EVENT_TIMEOUT_MS);
      this.observe(frame);
      if (done(frame)) return;
    }
  }

  /** Takes in what a frame says about this player's room, game and race. */
  observe(frame) {
    const here = frame.code !== undefined && frame.code === this.code;
    if (frame.type === 'room' && frame.room.code === this.code) {
      this.room = frame.room;
    } else if (frame.type === 'member_joined' && here && this.room) {
      const others = this.room.members.filter((member) => member.player_id !== frame.member.player_id);
      this.room = { ...this.room, members: [...others, frame.member] };
    } else if (frame.type === 'member_left' && here && this.room) {
      const members = this.room.members.filter((member) => member.player_id !== frame.player_id);
      this.room = { ...this.room, members, host_id: frame.host_id };
    } else if (frame.type === 'race_started' && here) {
      this.start(frame.game);
      this.log(`race started: game ${frame.game.game_id}`);
    } else if (frame.type === 'game_over' && this.game?.gameId === frame.game_id) {
      this.outcome = frame.outcome;
      this.game.moves = frame.player_moves;
    } else if (frame.type === 'race_over' && here) {
      this.over = frame;
    } else if (frame.type === 'game_state') {
      this.adopt(frame);
    }
  }

  /** Takes the server's word for where this player is (a resumed `welcome`'s `game_state`). */
  adopt({ room, game }) {
    // a room that is not this race's, or none: the seat was given up (a lobby left when the connection dropped)
    this.room = room !== null && room.code === this.code && this.seated(room) ? room : null;
    if (game !== null && game.room_code === this.code && game.status !== 'waiting') this.start(game);
  }

  start(game) {
    this.game = { gameId: game.game_id, view: game.view, moves: game.player_moves };
    if (FINISHED.includes(game.status)) this.outcome = game.status;
  }

  seated(room) {
    return room.members.some((member) => member.player_id === this.playerId);
  }
}

/**
 * Plays one race on `connection` (said hello already) and no other: `create` a room, join `room`, or `quick` a
 * variant's quick race (see RacePlayer). Resolves with the outcome, the moves played and the standings.
 */
export function playRace(connection, options = {}) {
  return new RacePlayer(options).play(connection);
}

/**
 * The bot as a whole: connects to `url`, says hello as `name` (with `token`, if given), and plays one race (see
 * RacePlayer) to its standings, coming back after every lost connection as `reconnect` says (a Reconnect: after a
 * server restart at once, with the same token, so the server seats it again and it plays on).
 */
export function runRace(url, { name = 'tidy-js', token = null, reconnect = new Reconnect(), onWelcome, log = () => {}, ...race } = {}) {
  const player = new RacePlayer({ ...race, log });
  return reconnect.run(url, name, (connection, welcome) => player.play(connection, welcome), { token, onWelcome, log });
}

function parseArguments(argv) {
  const [url, ...rest] = argv;
  const options = { url, name: 'tidy-js', giveUpAfterMs: 60_000 };
  for (let index = 0; index < rest.length; index += 2) {
    const [flag, value] = [rest[index], rest[index + 1]];
    if (flag === '--create') options.create = { ...(options.create ?? {}), variant: value };
    else if (flag === '--seed') options.create = { ...(options.create ?? {}), seed: value };
    else if (flag === '--players') options.create = { ...(options.create ?? {}), players: Number(value) };
    else if (flag === '--room') options.room = value;
    else if (flag === '--quick') options.quick = value;
    else if (flag === '--name') options.name = value;
    else if (flag === '--give-up-after') options.giveUpAfterMs = Number(value) * 1000;
    else throw new Error(`unknown option ${flag}`);
  }
  if (!url || !(options.create || options.room || options.quick) || !(options.giveUpAfterMs >= 0)) {
    throw new Error('usage: bot.mjs ws://HOST:PORT/ (--create VARIANT [--seed S] [--players N] | --room CODE | --quick VARIANT) [--name NAME] [--give-up-after S]');
  }
  return options;
}

async function main(argv) {
  const { url, giveUpAfterMs, ...options } = parseArguments(argv);
  const log = (line) => console.log(line);
  let me = null;
  const onWelcome = (welcome) => {
    if (me !== null) return;
    me = welcome;
    log(`hello ${welcome.name} (${welcome.player_id}); pacing under ${welcome.limits.rate_per_s} requests/s`);
  };
  const result = await runRace(url, { ...options, reconnect: new Reconnect({ giveUpAfterMs }), onWelcome, log });
  const mine = result.standings.find((row) => row.player_id === me.player_id);
  const reconnects = result.reconnects ? `, ${result.reconnects} reconnect${result.reconnects > 1 ? 's' : ''}` : '';
  log(`${result.outcome} in ${result.moves} moves, rank ${mine?.rank} of ${result.standings.length} (seed ${result.seed})${reconnects}`);
}

/**
 * The command (`node bot.mjs ARGS`, or `freecell-arena-js-bot ARGS` from the package). Exits 0 once the race is
 * over, 3 when the server stayed out of reach for `--give-up-after` seconds (60 by default; the Python bot's
 * code for an unreachable server), 1 on any other error (a refusal, a close that says not to come back).
 */
export function runCommand(argv = process.argv.slice(2)) {
  main(argv).catch((error) => {
    console.error(error.message);
    process.exit(error instanceof ReconnectGaveUp ? 3 : 1);
  });
}

if (typeof process !== 'undefined' && import.meta.url === `file://${process.argv[1]}`) runCommand();
