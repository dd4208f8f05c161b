// Declarations of bot.mjs (the example bot), over the generated types/protocol.d.ts.
import type { Connection } from './client.mjs';
import type { MoveAcceptedMessage, MoveJson, PlayerView, Standing } from './types/protocol.js';

/** The view after a `move_accepted`'s `changes` (a new object; the old one is left as it was). */
export declare function applyChanges(view: PlayerView, changes: MoveAcceptedMessage['changes']): PlayerView;

/** A move in the structured form the example bot proposes (the server fills in a cell or a foundation). */
export type Candidate = Required<MoveJson>;

/** Moves worth trying on `view`, best first. */
export declare function candidates(view: PlayerView): Candidate[];

/** A bot's memory: which moves it already tried from which position. */
export declare class TidyBot {
  choose(view: PlayerView): Candidate | null;
}

export interface RaceOptions {
  create?: { variant: string; seed?: string | number; players?: number; countdown?: number } | null;
  room?: string | null;
  quick?: string | null;
  maxMoves?: number;
  log?: (line: string) => void;
}

export interface RaceResult {
  code: string;
  outcome: string;
  moves: number;
  standings: Standing[];
  seed: string | null;
}

/** Plays one race on `connection` (said hello already): creates a room, joins one, or a quick race. */
export declare function playRace(connection: Connection, options?: RaceOptions): Promise<RaceResult>;

/** The command: `node bot.mjs ARGS` or `freecell-arena-js-bot ARGS`; exits 1 on an error. */
export declare function runCommand(argv?: string[]): void;
