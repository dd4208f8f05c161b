// Declarations of game-text.mjs (one game as tag lines and its actions in notation; docs/notation.md, "Game text").

/** The tags written first, in this order, when present. */
export declare const ROSTER: readonly string[];
export declare const RESULTS: readonly ('won' | 'resigned' | 'stuck' | 'timeout' | '*')[];
export declare const VARIANTS: readonly string[];
export declare const FILE_SUFFIX: '.fcgame';

/** Not a game: `line` (1-based) says where, `reason` why. */
export declare class GameTextError extends Error {
  constructor(line: number, reason: string);
  readonly line: number;
  readonly reason: string;
}

/** One game read from a text: its tags (in order), its actions in notation, and the line it starts on. */
export interface Game {
  tags: Map<string, string>;
  moves: string[];
  line: number;
}

/** Every game of a text, in order (a generator: an export is read one game at a time). */
export declare function readGames(text: string): Generator<Game, void, undefined>;
/** Exactly one game. */
export declare function readGame(text: string): Game;
/** A game's text, ending in a newline: the roster's tags first, the moves wrapped at 79 columns. */
export declare function writeGame(game: { tags: Map<string, string>; moves?: string[] }): string;
/** Many games, a blank line between them. */
export declare function writeGames(games: { tags: Map<string, string>; moves?: string[] }[]): string;
