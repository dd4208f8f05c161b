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

export declare class ConnectionClosed extends Error {
  constructor(code: number, reason: string);
  readonly code: number;
  readonly reason: string;
}

/** A frame as it came (parsed, and its text), or the connection's close. */
export type Arrival = { frame: ServerToClient; text: string; closed?: undefined } | { closed: ConnectionClosed };

/** A server frame of the given `type`. */
export type ServerFrame<T extends ServerToClient['type']> = Extract<ServerToClient, { type: T }>;

export declare class Connection {
  /** Opens a websocket to `url` (ws://127.0.0.1:8765/); resolves once open. */
  static open(url: string): Promise<Connection>;
  private constructor(socket: WebSocket);
  /** The `welcome` that answered `hello` (null before). */
  welcome: WelcomeMessage | null;
  /** The next frame or close, in the order they came. */
  next(timeoutMs?: number): Promise<Arrival>;
  /** The next frame; rejects with ConnectionClosed if the connection closed instead. */
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
