// Declarations of client.mjs, written by hand over the generated types/protocol.d.ts (every message of the protocol,
// from docs/schema/protocol.json); tsc checks them against examples/typed-bot.ts in CI.
import type { ClientToServer, ErrorMessage, ServerToClient, WelcomeMessage } from './types/protocol.js';

export type * from './types/protocol.js';

/** The protocol version this client speaks (`welcome.protocol`). */
export declare const PROTOCOL: 4;

/** The server refused a request: `code` is stable (docs/protocol.md, "Error codes"), `message` for people. */
export declare class ArenaError extends Error {
  constructor(frame: ErrorMessage);
  readonly code: ErrorMessage['code'];
  readonly reason: string | null;
  readonly frame: ErrorMessage;
}

/** The server speaks another protocol version than this client (its message says which is too old). */
export declare class ProtocolMismatch extends Error {
  constructor(server: number);
  readonly client: typeof PROTOCOL;
  readonly server: number;
}

/** The process serving this connection is stopping (a restart, a deploy, a drain): come back at once. */
export declare const CLOSE_SERVICE_RESTART: 1012;
/** The same identity said `hello` on another connection: that one plays now. */
export declare const CLOSE_REPLACED: 4000;
/** The token this connection said `hello` with was revoked: it will not work again. */
export declare const CLOSE_REVOKED: 4001;
/** A moderator banned this player. */
export declare const CLOSE_BANNED: 4002;

/** Answers to `hello` that say "not now" rather than "no": said again after the backoff. */
export declare const HELLO_AGAIN: readonly ErrorMessage['code'][];

/** The connection closed: `code` and `reason` are the close frame's (1006: none came, the connection was cut). */
export declare class ConnectionClosed extends Error {
  constructor(code: number, reason: string);
  readonly code: number;
  readonly reason: string;
  /** A close after which coming back is wrong (4000, 4001, 4002); its message says why. */
  readonly final: boolean;
}

/** No websocket could be opened to the server (nothing listens, the handshake was refused, or it took too long). */
export declare class ConnectFailed extends Error {}

/** Nothing came on an open connection within the time a call allowed. */
export declare class FrameTimeout extends Error {}

/** The server stayed out of reach for `Reconnect.giveUpAfterMs`: `cause` is the last attempt's error. */
export declare class ReconnectGaveUp extends Error {
  constructor(cause: Error, waitedMs: number);
  readonly cause: Error;
  readonly waitedMs: number;
}

/** A frame as it came (parsed, and its text), or the connection's close. */
export type Arrival = { frame: ServerToClient; text: string; closed?: undefined } | { closed: ConnectionClosed };

/** A server frame of the given `type`. */
export type ServerFrame<T extends ServerToClient['type']> = Extract<ServerToClient, { type: T }>;

export declare class Connection {
  /** Opens a websocket to `url` (ws://127.0.0.1:8765/); resolves once open, rejects with ConnectFailed. */
  static open(url: string, options?: { timeoutMs?: number }): Promise<Connection>;
  private constructor(socket: WebSocket);
  /** The `welcome` that answered `hello` (null before). */
  welcome: WelcomeMessage | null;
  /** The next frame or close, in the order they came; rejects with FrameTimeout when none comes in time. */
  next(timeoutMs?: number): Promise<Arrival>;
  /** The next frame; rejects with ConnectionClosed if the connection closed instead (FrameTimeout: nothing came). */
  frame(timeoutMs?: number): Promise<ServerToClient>;
  sendText(text: string): void;
  send(message: ClientToServer): void;
  /** Waits so that requests stay under the rate `welcome.limits` announced. */
  pace(): Promise<void>;
  /**
   * Sends `message` with a fresh id; resolves with the frame answering it (events that come first go to
   * `onEvent`), or rejects with ArenaError when the answer is an `error`. Name the answer's type for a typed frame:
   * `await connection.request<'room'>({ type: 'join_room', code })`.
   */
  request<T extends ServerToClient['type'] = ServerToClient['type']>(
    message: ClientToServer,
    onEvent?: (frame: ServerToClient) => void,
  ): Promise<ServerFrame<T>>;
  /** Says hello; rejects with ProtocolMismatch when the server speaks another protocol version. */
  hello(name: string, options?: { token?: string | null; bot?: boolean }): Promise<WelcomeMessage>;
  close(): void;
}

/** What a lost connection calls for: back at once (1012), after the backoff, or not at all (the error is thrown). */
export type ReconnectStep = 'restart' | 'backoff' | 'stop';

export interface ReconnectOptions {
  /** The first backoff, and the most a 1012's wait (default 250). */
  firstDelayMs?: number;
  /** The backoff doubles up to this (default 5000). */
  maxDelayMs?: number;
  /** Give up once attempts have failed in a row for this long (default 60000). */
  giveUpAfterMs?: number;
}

/**
 * When to come back after a lost connection, and the loop that does it, as the Python SDK's runner does: after a
 * 1012 at once (a random 0 to `firstDelayMs`), after any other loss with a backoff (`firstDelayMs` doubling to
 * `maxDelayMs`, with jitter), giving up (ReconnectGaveUp) after `giveUpAfterMs` of failures in a row; never after
 * 4000, 4001, 4002, a `hello` refused for good, or an error that is no lost connection.
 */
export declare class Reconnect {
  constructor(options?: ReconnectOptions);
  readonly firstDelayMs: number;
  readonly maxDelayMs: number;
  readonly giveUpAfterMs: number;
  /** The wait before the `attempt`th attempt in a row (from 1): doubling, capped, times a random 0.5 to 1. */
  delay(attempt: number): number;
  /** The wait after a 1012: a random 0 to `firstDelayMs`. */
  restartDelay(): number;
  /** What `error`, having ended a connection's use, calls for (`hello`: it answered a `hello`). */
  classify(error: unknown, options?: { hello?: boolean }): ReconnectStep;
  /**
   * `session`'s answer on a new connection, and on another whenever that one is lost; each says `hello` as `name`
   * with the token the last `welcome` gave (at first `token`), so the server seats the same player again.
   */
  run<T>(
    url: string,
    name: string,
    session: (connection: Connection, welcome: WelcomeMessage) => Promise<T>,
    options?: { token?: string | null; onWelcome?: (welcome: WelcomeMessage) => void; log?: (line: string) => void },
  ): Promise<T>;
}
