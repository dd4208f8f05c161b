#!/usr/bin/env node
/**
 * An example bot in JavaScript: no rules engine and no dependency. It reads its board from the server's player
 * view (the whole view with `race_started`, each `move_accepted`'s `changes` put in), proposes moves in an order of
 * preference (cards home, builds, free cells), and lets the server judge them: a refused move (`illegal_move`)
 * changes nothing, so it tries the next. It never proposes the same move twice from the same position, and
 * resigns when it has nothing new to try. Requests are paced by the rate `welcome` announces.
 *
 *   node --experimental-websocket clients/javascript/bot.mjs ws://127.0.0.1:8765/ --create freecell --players 2
 *   node --experimental-websocket clients/javascript/bot.mjs ws://127.0.0.1:8765/ --room ABCD2345
 *   node --experimental-websocket clients/javascript/bot.mjs ws://127.0.0.1:8765/ --quick chinese-freecell
 *
 * (Node 22 and later have the WebSocket without the flag; with the `ws` package installed, Node 20 needs no flag
 * either.) Installed from npm, the same bot is the `freecell-arena-js-bot` command. docs/bots.md says more.
 */

import { ArenaError, Connection } from './client.mjs';

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
    const position = JSON.stringify([view.tableau, view.cells]);
    const tried = this.tried.get(position) ?? new Set();
    this.tried.set(position, tried);
    const move = candidates(view).find((candidate) => !tried.has(JSON.stringify(candidate)));
    if (move) tried.add(JSON.stringify(move));
    return move ?? null;
  }
}

/**
 * Plays one race on `connection` (said hello already): `create` a room (`{variant, seed, players}`; host starts
 * once `players` are in), join `room`, or `quick` a variant's quick race. Resolves with the outcome, the moves
 * played and the standings.
 */
export async function playRace(connection, { create = null, room = null, quick = null, maxMoves = 500, log = () => {} } = {}) {
  const events = [];
  const onEvent = (frame) => events.push(frame);
  let joined;
  if (create) {
    const request = { type: 'create_room', variant: create.variant, options: { countdown_s: create.countdown ?? 1 } };
    if (create.seed !== undefined) request.seed = String(create.seed);
    joined = await connection.request(request, onEvent);
  } else if (room) {
    joined = await connection.request({ type: 'join_room', code: room }, onEvent);
  } else {
    joined = await connection.request({ type: 'quick_race', variant: quick }, onEvent);
  }
  const code = joined.room.code;
  log(`room ${code}`);
  const nextEvent = async () => events.shift() ?? connection.frame(120_000);
  if (create) {
    let players = joined.room.members.filter((member) => member.role === 'player').length;
    while (players < (create.players ?? 1)) {
      const event = await nextEvent();
      if (event.type === 'member_joined' && event.member.role === 'player') players += 1;
    }
    await connection.request({ type: 'start_race' }, onEvent);
  }
  let started;
  while (!started) {
    const event = await nextEvent();
    if (event.type === 'race_started' && event.code === code) started = event;
  }
  let view = started.game.view;
  const bot = new TidyBot();
  let outcome = null;
  let moves = 0;
  while (outcome === null) {
    const move = moves < maxMoves ? bot.choose(view) : null;
    if (move === null) {
      outcome = (await connection.request({ type: 'resign' }, onEvent)).outcome;
      break;
    }
    try {
      const accepted = await connection.request({ type: 'move', move }, onEvent);
      view = applyChanges(view, accepted.changes);
      moves = accepted.player_moves;
      if (accepted.status !== 'playing') outcome = accepted.status;
    } catch (error) {
      if (!(error instanceof ArenaError)) throw error;
      if (error.code === 'game_not_running') outcome = 'timeout';
      else if (error.code !== 'illegal_move') throw error;
    }
  }
  log(`game over: ${outcome} after ${moves} moves`);
  let over;
  while (!over) {
    const event = await nextEvent();
    if (event.type === 'race_over' && event.code === code) over = event;
  }
  return { code, outcome, moves, standings: over.standings, seed: over.seed };
}

function parseArguments(argv) {
  const [url, ...rest] = argv;
  const options = { url, name: 'tidy-js' };
  for (let index = 0; index < rest.length; index += 2) {
    const [flag, value] = [rest[index], rest[index + 1]];
    if (flag === '--create') options.create = { ...(options.create ?? {}), variant: value };
    else if (flag === '--seed') options.create = { ...(options.create ?? {}), seed: value };
    else if (flag === '--players') options.create = { ...(options.create ?? {}), players: Number(value) };
    else if (flag === '--room') options.room = value;
    else if (flag === '--quick') options.quick = value;
    else if (flag === '--name') options.name = value;
    else throw new Error(`unknown option ${flag}`);
  }
  if (!url || !(options.create || options.room || options.quick)) {
    throw new Error('usage: bot.mjs ws://HOST:PORT/ (--create VARIANT [--seed S] [--players N] | --room CODE | --quick VARIANT) [--name NAME]');
  }
  return options;
}

async function main(argv) {
  const options = parseArguments(argv);
  const connection = await Connection.open(options.url);
  try {
    const welcome = await connection.hello(options.name);
    console.log(`hello ${welcome.name} (${welcome.player_id}); pacing under ${welcome.limits.rate_per_s} requests/s`);
    const result = await playRace(connection, { ...options, log: (line) => console.log(line) });
    const mine = result.standings.find((row) => row.player_id === welcome.player_id);
    console.log(`${result.outcome} in ${result.moves} moves, rank ${mine?.rank} of ${result.standings.length} (seed ${result.seed})`);
  } finally {
    connection.close();
  }
}

/** The command (`node bot.mjs ARGS`, or `freecell-arena-js-bot ARGS` from the package): exits 1 on an error. */
export function runCommand(argv = process.argv.slice(2)) {
  main(argv).catch((error) => {
    console.error(error.message);
    process.exit(1);
  });
}

if (typeof process !== 'undefined' && import.meta.url === `file://${process.argv[1]}`) runCommand();
