/**
 * Names and notation, shared by rendering, input and the tests.
 *
 * The server speaks card text ("7H", "TD", null for a face-down card) and move notation ("t3-c1", "t3-t5x2",
 * "c1-f"). This module turns card text into the words a screen reader says ("7 of hearts"), names the piles
 * the way the server numbers them (1-based in text), and spells the generic notation every variant accepts.
 * It never judges whether a move is legal: the server does.
 */

import { pileCards } from './view-state.js';

/** What the pages show of each variant (docs/rules.md): its name, its shape, whether undo is on by default. */
export const VARIANTS = Object.freeze([
  { id: 'freecell', name: 'FreeCell', columns: 8, cells: 4, foundations: 4, blurb: 'The classic: one deck, four free cells.' },
  { id: 'chinese-freecell', name: 'Chinese FreeCell', columns: 11, cells: 4, foundations: 6, blurb: 'Three suits twice; build on any other suit; only Kings fill an empty column.' },
  { id: 'freecell-four-deck', name: 'FreeCell Four Deck', columns: 14, cells: 14, foundations: 16, blurb: 'Four decks, fourteen columns, fourteen cells.' },
  { id: 'cell-eleven', name: 'Cell Eleven', columns: 7, cells: 11, foundations: 4, blurb: 'A Klondike deal with face-down cards and eleven cells; one card at a time.' },
  { id: 'freecell-three-deck', name: 'FreeCell Three Deck', columns: 12, cells: 6, foundations: 4, undoByDefault: false, foundationCards: 39, blurb: 'Three decks; each foundation runs Ace to King three times.' },
]);

export function variantById(id) {
  return VARIANTS.find((variant) => variant.id === id) ?? null;
}

export function variantName(id) {
  return variantById(id)?.name ?? id;
}

const RANK_WORDS = { A: 'Ace', T: '10', J: 'Jack', Q: 'Queen', K: 'King' };
const RANK_SHORT = { T: '10' };
export const SUITS = Object.freeze({
  C: { name: 'clubs', symbol: '\u2663', colour: 'black' },
  D: { name: 'diamonds', symbol: '\u2666', colour: 'red' },
  H: { name: 'hearts', symbol: '\u2665', colour: 'red' },
  S: { name: 'spades', symbol: '\u2660', colour: 'black' },
});

/** Splits "TD" into its rank and suit letters; throws on anything that is not a card. */
export function parseCard(text) {
  if (typeof text !== 'string' || !/^[A2-9TJQK][CDHS]$/i.test(text)) {
    throw new Error(`not a card: ${JSON.stringify(text)}`);
  }
  return { rank: text[0].toUpperCase(), suit: text[1].toUpperCase() };
}

/** The accessible name of a card: "7 of hearts", "Ace of spades", "face-down card" for null. */
export function cardName(text) {
  if (text === null || text === undefined) return 'face-down card';
  const { rank, suit } = parseCard(text);
  return `${RANK_WORDS[rank] ?? rank} of ${SUITS[suit].name}`;
}

/** What the corner of a card shows: "10" and the suit symbol. */
export function cardFace(text) {
  const { rank, suit } = parseCard(text);
  return { rank: RANK_SHORT[rank] ?? rank, symbol: SUITS[suit].symbol, suit, colour: SUITS[suit].colour };
}

/** The pile ids of the server's generic notation: t3 (column 3), c1 (cell 1), f2 (foundation 2); 1-based. */
export function pileId(zone, index) {
  const letter = { tableau: 't', cell: 'c', foundation: 'f' }[zone];
  if (!letter || !Number.isInteger(index) || index < 0) throw new Error(`no such pile: ${zone} ${index}`);
  return `${letter}${index + 1}`;
}

/** The other way: "t3" -> {zone: "tableau", index: 2}. Null when the text is not a pile id. */
export function parsePileId(id) {
  const match = /^([tcf])(\d{1,2})$/.exec(id ?? '');
  if (!match || Number(match[2]) < 1) return null;
  const zone = { t: 'tableau', c: 'cell', f: 'foundation' }[match[1]];
  return { zone, index: Number(match[2]) - 1 };
}

const PILE_LABELS = { tableau: 'Column', cell: 'Free cell', foundation: 'Foundation' };

/** The label of a pile's group: "Column 1", "Free cell 2", "Foundation 3". */
export function pileLabel(zone, index) {
  return `${PILE_LABELS[zone]} ${index + 1}`;
}

/**
 * The generic notation of a move between two piles: "t3-c1", "t3-t5x2", "c1-f".
 * A move to a foundation names no foundation ("-f": the first that takes the card), so a card dropped on
 * the wrong copy of its suit's foundation still goes home; cells and columns are named.
 */
export function moveNotation(source, target, count = 1) {
  const from = parsePileId(source);
  const to = parsePileId(target);
  if (!from || from.zone === 'foundation') throw new Error(`a move starts at a column or a cell, not ${source}`);
  if (!to) throw new Error(`no such destination: ${target}`);
  if (!Number.isInteger(count) || count < 1) throw new Error(`a move carries at least one card, not ${count}`);
  const destination = to.zone === 'foundation' ? 'f' : target;
  return `${source}-${destination}${count > 1 ? `x${count}` : ''}`;
}

/** The generic notation of "this card to its foundation" (double-click, the F key). */
export function toFoundation(source) {
  return moveNotation(source, 'f1');
}

/** Milliseconds as "m:ss" (or "h:mm:ss"), for the timer and the tables. */
export function formatDuration(ms) {
  if (!Number.isFinite(ms) || ms < 0) return '0:00';
  const seconds = Math.floor(ms / 1000);
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = String(seconds % 60).padStart(2, '0');
  return hours ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}

/** "1st", "2nd", "3rd", "11th", "22nd": a place in the standings. */
export function ordinal(number) {
  const tens = number % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' }[number % 10] ?? 'th');
  return `${number}${suffix}`;
}

/** "1 move", "2 moves": a count with its noun, the singular for one. */
export function counted(count, one, many = `${one}s`) {
  return `${count} ${count === 1 ? one : many}`;
}

/** A game's counts as the announcements and the outcome say them: "12 moves, 1 card home, 0:42". */
export function countsText(moves, cardsHome, timeMs) {
  return `${counted(moves, 'move')}, ${counted(cardsHome, 'card')} home, ${formatDuration(timeMs)}`;
}

/** "1512", or "1512?" while the rating is provisional (lichess's mark). */
export function ratingText(view) {
  if (!view) return '\u2013';
  return `${view.rating}${view.provisional ? '?' : ''}`;
}

/** "+12", "\u22128" (a real minus), "\u00b10". */
export function deltaText(delta) {
  if (delta > 0) return `+${delta}`;
  if (delta < 0) return `\u2212${-delta}`;
  return '\u00b10';
}

/**
 * A seed as a title shows it: up to 9 digits whole, a longer one (Cell Eleven's and the other variants' seeds run
 * to 19 digits) as its first and last digits, "1234…789"; the whole seed stays in the page's text elsewhere (the
 * replay's deal line, the title attribute). Seeds may come as numbers, BigInts or decimal strings: all alike.
 */
export function shortSeed(seed) {
  const text = String(seed);
  return text.length > 9 ? `${text.slice(0, 4)}\u2026${text.slice(-3)}` : text;
}

const ZONE_OF = { tableau: 'tableau', column: 'tableau', cell: 'cell', foundation: 'foundation' };

/** "7 of hearts", "3 cards, 9 of spades to 7 of hearts" (deepest first, as they lie), "a face-down card". */
export function cardsWords(cards) {
  if (!cards.length) return 'nothing';
  if (cards.length === 1) return cardName(cards[0]);
  return `${cards.length} cards, ${cardName(cards[0])} to ${cardName(cards.at(-1))}`;
}

/**
 * What a screen reader hears on a pile (its group's name): where it is, its top card and how many cards it
 * holds: "Column 3: 7 of hearts on top, 5 cards (2 face down)", "Free cell 1: empty", "Foundation 2, hearts:
 * 4 of hearts, 4 cards".
 */
export function pileDescription(zone, index, cards, { count = cards.length, suit = null } = {}) {
  const label = pileLabel(zone, index);
  if (zone === 'foundation') {
    const suitName = suit ? `, ${SUITS[suit]?.name ?? suit}` : '';
    return count ? `${label}${suitName}: ${cardName(cards.at(-1))}, ${counted(count, 'card')}` : `${label}${suitName}: empty`;
  }
  if (!cards.length) return `${label}: empty`;
  if (zone === 'cell') return `${label}: ${cardName(cards[0])}`;
  const hidden = cards.filter((card) => card === null || card === undefined).length;
  return `${label}: ${cardName(cards.at(-1))} on top, ${counted(cards.length, 'card')}${hidden ? ` (${hidden} face down)` : ''}`;
}

function placeWords(zone, index) {
  const kind = ZONE_OF[zone];
  if (kind === 'foundation') return 'the foundation';
  return pileLabel(kind, index).replace(/^Column/, 'column').replace(/^Free cell/, 'free cell');
}

/**
 * An accepted move in words, for the live region: "7 of hearts from column 3 to free cell 1", "3 cards, 9 of
 * spades to 7 of hearts, from column 3 to column 5". `move` is a played move's structured form (0-based, as the
 * server sends it); `before` the view the move was made on (where its cards lay).
 */
export function moveWords(move, before) {
  const from = ZONE_OF[move.from];
  const cards = before ? pileCards(before, from, move.from_index).slice(-(move.count ?? 1)) : [];
  const what = cards.length ? cardsWords(cards) : counted(move.count ?? 1, 'card');
  return `${what} from ${placeWords(from, move.from_index)} to ${placeWords(move.to, move.to_index ?? 0)}`;
}


/** The generic notation's parts ("t3-c1", "t1-t4x3", "c2-f", "t3-c"): source pile, target ("f" / "c" / "t": any
 * such pile), count; null when the text is not generic notation. */
export function parseGeneric(text) {
  const match = /^([tc]\d{1,2})-([tcf]\d{0,2})(?:x(\d+))?$/.exec(text ?? '');
  return match ? { source: match[1], target: match[2], count: Number(match[3] ?? 1) } : null;
}

/** A generic-notation move in words on the board `view`: "7 of hearts from column 3 to free cell 1". */
export function genericWords(text, view) {
  const move = parseGeneric(text);
  if (!move) return text;
  const from = parsePileId(move.source);
  const to = parsePileId(move.target) ?? { zone: { f: 'foundation', c: 'cell', t: 'tableau' }[move.target[0]], index: null };
  const words = moveWords({ from: from.zone, from_index: from.index, to: to.zone, to_index: to.index ?? 0, count: move.count }, view);
  return to.index === null && to.zone !== 'foundation' ? words.replace(/ to .*$/, ` to ${to.zone === 'cell' ? 'a free cell' : 'an empty column'}`) : words;
}

/** The engine's words with its card codes spelled out: "6S cannot go on 9C" -> "6 of spades cannot go on 9 of clubs". */
export function cardsInWords(text) {
  return String(text ?? '').replace(/\b([A2-9TJQK][CDHS])\b/g, (card) => cardName(card));
}

/**
 * A refused move as the player reads it under the board: the engine's reason in words ("Not played: 6 of spades
 * cannot go on 9 of clubs in column 2: …"), as accepted moves are told; typed text the server could not read is
 * quoted as typed. `refusal` is `{move, code, message}`.
 */
export function refusalWords({ move, code, message }) {
  if (code === 'bad_notation') return `\u201c${move}\u201d is not a move: ${message}`;
  return `Not played: ${code === 'illegal_move' ? cardsInWords(message) : message}`;
}
