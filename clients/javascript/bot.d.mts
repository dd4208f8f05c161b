// Declarations of bot.mjs (the example bot), over the generated types/protocol.d.ts.
import type { Connection, Reconnect } from './client.mjs';
import type { GameStateMessage, MoveAcceptedMessage, MoveJson, PlayerView, RoomView, ServerToClient, Standing, WelcomeMessage } from './types/protocol.js';

/** The view after a `move_accepted`'s `changes` (a new object; the old one is left as it was). */
export declare function applyChanges(view: PlayerView, changes: MoveAcceptedMessage['changes']): PlayerView;

/** A move in the structured form the example bot proposes (the server fills in a cell or a foundation). */
export type Candidate = Required<MoveJson>;

/** Moves worth trying on `view`, best first. */
export declare function candidates(view: PlayerView): Candidate[];

/** A bot's memory: which moves it already tried from which position. */
export declare class TidyBot {
  choose(view: PlayerView): Candidate | null;
  /** Forgets that `move` was tried from `view`: its answer was lost with the connection, so it may not have counted. */
  forget(view: PlayerView, move: Candidate): void;
}

export interface RaceOptions {
  create?: { variant: string; seed?: string | number; players?: number; countdown?: number } | null;
  room?: string | null;
  quick?: string | null;
  maxMoves?: number;
  /** Fail when the race has not started this long after the bot first waited for it (default 300000). */
  startTimeoutMs?: number;
  log?: (line: string) => void;
}

export interface RaceResult {
  code: string;
  outcome: string;
  moves: number;
  standings: Standing[];
  seed: string | null;
  /** How many times the connection was replaced on the way. */
  reconnects: number;
}

/**
 * One race, played on as many connections as it takes: it keeps what the server said, so `play` on a new connection
 * of the same player picks up where the last one left off (from the `game_state` a resumed `welcome` brings).
 */
export declare class RacePlayer {
  constructor(options?: RaceOptions);
  /** The race's room code (null until the bot sits in one). */
  readonly code: string | null;
  /** The bot's game's outcome (null while it plays). */
  readonly outcome: string | null;
  /** Plays on `connection` (said hello already) to the race's standings. */
  play(connection: Connection, welcome?: WelcomeMessage): Promise<RaceResult>;
  /** Takes in what a frame says about this player's room, game and race. */
  observe(frame: ServerToClient): void;
  /** Takes the server's word for where this player is (a resumed `welcome`'s `game_state`). */
  adopt(state: Pick<GameStateMessage, 'room' | 'game'>): void;
  /** Whether this player sits in `room`. */
  seated(room: RoomView): boolean;
}

/** Plays one race on `connection` (said hello already) and no other: creates a room, joins one, or a quick race. */
export declare function playRace(connection: Connection, options?: RaceOptions): Promise<RaceResult>;

export interface RunOptions extends RaceOptions {
  /** The name to say hello with (default tidy-js). */
  name?: string;
  /** A token to say the first hello with (a bot account's); later ones use the token the last `welcome` gave. */
  token?: string | null;
  /** When to come back after a lost connection (default: new Reconnect()). */
  reconnect?: Reconnect;
  /** Sees every `welcome` (the first, and each resumed one). */
  onWelcome?: (welcome: WelcomeMessage) => void;
}

/**
 * The bot as a whole: connects to `url`, says hello, plays one race to its standings, and comes back after every
 * lost connection as `reconnect` says, with the same token, so the server seats it again and it plays on.
 */
export declare function runRace(url: string, options?: RunOptions): Promise<RaceResult>;

/**
 * The command: `node bot.mjs ARGS` or `freecell-arena-js-bot ARGS`. Exits 0 once the race is over, 3 when the server
 * stayed out of reach for `--give-up-after` seconds (60), 1 on any other error.
 */
export declare function runCommand(argv?: string[]): void;
