/**
 * Game text: one game as tag lines, a blank line, then its actions in the project's notation, as PGN is for chess
 * (docs/notation.md, "Game text", has the grammar). The server's `replay` reply carries its game this way
 * (`game_text`); `freecell-arena replay --game FILE` replays a file of them. Pure text: whether the moves are legal
 * is the engine's to say. Seeds stay strings (a 64-bit seed is not exact in a JavaScript number).
 *
 *   const game = readGame(replay.game_text);   // { tags: Map, moves: [...], line }
 *   game.tags.get('Result');                   // 'won'
 *   writeGame({ tags: new Map([['Variant', 'freecell'], ['Seed', '11982']]), moves: ['3a', '82'] });
 */

/** The tags written first, in this order, when present; the others follow as given. */
export const ROSTER = ['Variant', 'Seed', 'Autoplay', 'Date', 'Player', 'Result'];
export const RESULTS = ['won', 'resigned', 'stuck', 'timeout', '*'];
export const VARIANTS = ['freecell', 'chinese-freecell', 'freecell-four-deck', 'cell-eleven', 'freecell-three-deck'];
export const FILE_SUFFIX = '.fcgame';

const TAG_LINE = /^\[([A-Za-z][A-Za-z0-9_]{0,31}) "((?:[^"\\]|\\["\\])*)"\]/;
const NAME = /^[A-Za-z][A-Za-z0-9_]{0,31}$/;
const COUNT = /^[0-9]+$/;

export class GameTextError extends Error {
  /** Not a game: `line` (1-based) says where, `reason` why. */
  constructor(line, reason) {
    super(`line ${line}: ${reason}`);
    this.line = line;
    this.reason = reason;
  }
}

/** Every game of a text, in order (a generator: an export is read one game at a time). */
export function* readGames(text) {
  let tags = null;
  let moves = [];
  let start = 0;
  let inTags = false;
  const lines = text.split(/\r?\n/);
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  for (const [index, raw] of lines.entries()) {
    const number = index + 1;
    const line = raw.trim();
    if (!line) {
      inTags = false;
      continue;
    }
    if (line.startsWith('[')) {
      if (!inTags) {
        if (tags) yield record(tags, moves, start);
        tags = new Map();
        moves = [];
        start = number;
        inTags = true;
      }
      const [name, value] = tag(line, number);
      if (tags.has(name)) throw new GameTextError(number, `the tag ${name} is given twice`);
      tags.set(name, value);
    } else if (!tags && !line.startsWith('#')) {
      throw new GameTextError(number, 'a game starts with its tags ([Variant "..."] and [Seed "..."])');
    } else {
      const words = line.split('#', 1)[0].trim(); // `#` to the end of a line is a comment
      if (words) {
        inTags = false;
        moves.push(...words.split(/\s+/));
      }
    }
  }
  if (tags) yield record(tags, moves, start);
}

/** Exactly one game. */
export function readGame(text) {
  const games = [...readGames(text)];
  if (games.length !== 1) throw new GameTextError(1, `expected one game, found ${games.length}`);
  return games[0];
}

/** A game's text, ending in a newline: the roster's tags first, the moves wrapped at 79 columns. */
export function writeGame({ tags, moves = [] }) {
  const given = tags instanceof Map ? tags : new Map(Object.entries(tags));
  for (const required of ['Variant', 'Seed']) {
    if (!given.has(required)) throw new TypeError(`a game needs its ${required} tag`);
  }
  let head = '';
  for (const name of rosterFirst(given.keys())) {
    const value = String(given.get(name));
    if (!NAME.test(name)) throw new TypeError(`a tag name is a letter then up to 31 letters, digits or _, not ${name}`);
    if (/[\r\n]/.test(value)) throw new TypeError(`the ${name} tag's value is one line`);
    head += `[${name} "${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"]\n`;
  }
  return `${head}\n${wrap(moves)}\n`;
}

/** Many games, a blank line between them. */
export function writeGames(games) {
  return games.map(writeGame).join('\n');
}

function tag(line, number) {
  const found = TAG_LINE.exec(line);
  const rest = found ? line.slice(found[0].length).trim() : '';
  if (!found || (rest && !rest.startsWith('#'))) {
    throw new GameTextError(number, `not a tag line: ${JSON.stringify(line.slice(0, 60))} (a tag reads [Name "value"])`);
  }
  return [found[1], found[2].replace(/\\(["\\])/g, '$1')];
}

function record(tags, moves, line) {
  for (const name of ['Variant', 'Seed']) {
    if (!tags.has(name)) throw new GameTextError(line, `the game has no ${name} tag`);
  }
  const check = (ok, reason) => { if (!ok) throw new GameTextError(line, reason); };
  check(VARIANTS.includes(tags.get('Variant')), `unknown variant '${tags.get('Variant')}' (one of: ${VARIANTS.join(', ')})`);
  check(COUNT.test(tags.get('Seed')), `a seed is a whole number, not '${tags.get('Seed')}'`);
  check(['on', 'off'].includes(tags.get('Autoplay') ?? 'off'), `Autoplay is on or off, not '${tags.get('Autoplay')}'`);
  check(RESULTS.includes(tags.get('Result') ?? '*'), `Result is one of ${RESULTS.join(', ')}, not '${tags.get('Result')}'`);
  check(!tags.has('Moves') || COUNT.test(tags.get('Moves')), `Moves is a count, not '${tags.get('Moves')}'`);
  return { tags: new Map(rosterFirst(tags.keys()).map((name) => [name, tags.get(name)])), moves, line };
}

/** Tag names in the writer's order: the roster's, then the others as given. */
function rosterFirst(names) {
  const given = [...names];
  return [...ROSTER.filter((name) => given.includes(name)), ...given.filter((name) => !ROSTER.includes(name))];
}

function wrap(moves, width = 79) {
  const lines = [];
  let current = '';
  for (const move of moves) {
    if (current && current.length + 1 + move.length > width) {
      lines.push(current);
      current = move;
    } else {
      current = current ? `${current} ${move}` : move;
    }
  }
  lines.push(current);
  return lines.join('\n');
}
