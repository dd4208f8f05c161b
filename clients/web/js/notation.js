/**
 * Names and notation, shared by rendering, input and the tests.
 *
 * The server speaks card text ("7H", "TD", null for a face-down card) and move notation ("t3-c1", "t3-t5x2",
 * "c1-f"). This module turns card text into the words a screen reader says ("7 of hearts"), names the piles
 * the way the server numbers them (1-based in text), and spells the generic notation every variant accepts.
 * It never judges whether a move is legal: the server does.
 */

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
