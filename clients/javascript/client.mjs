/**
 * A small FreeCell Arena client for Node (20 or later) and browsers, with no dependency: the WebSocket built into
 * the browser or Node (global from Node 22; `node --experimental-websocket` on Node 20), else the `ws` package
 * where it is installed (an optional peer dependency). One connection: frames in order, requests by `id` with their
 * replies, everything else as events; the limits `welcome` announces pace the requests. Types: client.d.mts, and
 * every message of the protocol in types/protocol.d.ts (generated from docs/schema/protocol.json).
 *
 * Frames are plain JSON: protocol 4 is I-JSON, so every number fits a JavaScript number and seeds come as
 * decimal strings (send them back as they came).
 */

export const PROTOCOL = 4;
const FRAME_TIMEOUT_MS = 10_000;
const OPEN_TIMEOUT_MS = 10_000;

/** The process serving this connection is stopping (a restart, a deploy, a drain): come back at once. */
export const CLOSE_SERVICE_RESTART = 1012;
/** The same identity said `hello` on another connection: that one plays now. */
export const CLOSE_REPLACED = 4000;
/** The token this connection said `hello` with was revoked: it will not work again. */
export const CLOSE_REVOKED = 4001;
/** A moderator banned this player. */
export const CLOSE_BANNED = 4002;

/**
 * The closes after which coming back is wrong, and why, as docs/protocol.md's close codes say: another connection
 * plays now, or the identity cannot say hello again. Every other close (1006 from a killed process, 1008, 1009,
 * 1011) is worth another connection; 1012 at once.
 */
const FINAL_CLOSES = new Map([
  [CLOSE_REPLACED, 'another connection took over this player\'s identity'],
  [CLOSE_REVOKED, 'this player\'s token was revoked'],
  [CLOSE_BANNED, 'a moderator banned this player'],
]);

/**
 * Answers to `hello` that say "not now" rather than "no": the server cannot reach its database for the moment, is
 * stopping (another process, or its restart, takes the player), or failed. Said again after the backoff, as after a
 * lost connection (the Python SDK's runner does the same).
 */
export const HELLO_AGAIN = Object.freeze(['storage_failed', 'shutting_down', 'internal_error']);

export class ArenaError extends Error {
  /** The server refused a request: `code` is stable (docs/protocol.md, "Error codes"), `message` for people. */
  constructor(frame) {
    super(`${frame.code}: ${frame.message}`);
    this.code = frame.code;
    this.reason = frame.reason ?? null;
    this.frame = frame;
  }
}

/** The server speaks another protocol version than this client: `welcome.protocol` is not PROTOCOL. */
export class ProtocolMismatch extends Error {
  constructor(server) {
    super(server > PROTOCOL
      ? `this freecell-arena-client speaks protocol ${PROTOCOL}, the server protocol ${server}: the client is too old for the server; upgrade it (npm install freecell-arena-client@latest)`
      : `this freecell-arena-client speaks protocol ${PROTOCOL}, the server protocol ${server}: the server is older than the client; use a client of protocol ${server}`);
    this.client = PROTOCOL;
    this.server = server;
  }
}

export class ConnectionClosed extends Error {
  /** The connection closed: `code` and `reason` are the close frame's (1006: none came, the connection was cut). */
  constructor(code, reason) {
    const final = FINAL_CLOSES.get(code);
    super(`the connection closed (${code}${reason ? `: ${reason}` : ''})${final ? `: ${final}; not reconnecting` : ''}`);
    this.code = code;
    this.reason = reason;
    this.final = final !== undefined;
  }
}

/** No websocket could be opened to the server (nothing listens, the handshake was refused, or it took too long). */
export class ConnectFailed extends Error {}

/** Nothing came on an open connection within the time a call allowed. */
export class FrameTimeout extends Error {}

/** The server stayed out of reach for `Reconnect.giveUpAfterMs`: `cause` is the last attempt's error. */
export class ReconnectGaveUp extends Error {
  constructor(cause, waitedMs) {
    super(`gave up reconnecting after ${Math.round(waitedMs / 1000)} s of failed attempts: ${cause.message}`, { cause });
    this.waitedMs = waitedMs;
  }
}

const WS_PACKAGE = 'ws'; // a name in a variable: bundlers for the browser leave the optional import alone

async function webSocketClass() {
  if (typeof globalThis.WebSocket === 'function') return globalThis.WebSocket;
  try {
    return (await import(WS_PACKAGE)).WebSocket;
  } catch {
    throw new Error('this Node has no global WebSocket: use Node 22, run node with --experimental-websocket, or npm install ws');
  }
}

export class Connection {
  /**
   * Opens a websocket to `url` (ws://127.0.0.1:8765/); resolves once open, rejects with ConnectFailed when it does
   * not open within `timeoutMs` (a server that accepts the connection but never answers the handshake).
   */
  static async open(url, { timeoutMs = OPEN_TIMEOUT_MS } = {}) {
    const socket = new (await webSocketClass())(url);
    const connection = new Connection(socket);
    return new Promise((resolve, reject) => {
      const fail = (why) => {
        clearTimeout(timer);
        reject(new ConnectFailed(`cannot connect to ${url}${why}`));
      };
      const timer = setTimeout(() => {
        socket.close();
        fail(` within ${timeoutMs} ms`);
      }, timeoutMs);
      socket.addEventListener('open', () => {
        clearTimeout(timer);
        resolve(connection);
      }, { once: true });
      socket.addEventListener('error', () => fail(''), { once: true });
    });
  }

  constructor(socket) {
    this.socket = socket;
    this.inbox = []; // frames (or the close) not yet taken, in order
    this.waiters = [];
    this.closed = null;
    this.nextId = 1;
    this.welcome = null;
    this.lastSent = 0;
    socket.addEventListener('message', (event) => this.arrive({ frame: JSON.parse(event.data), text: event.data }));
    socket.addEventListener('close', (event) => {
      this.closed = new ConnectionClosed(event.code, event.reason);
      this.arrive({ closed: this.closed });
    });
  }

  arrive(item) {
    const waiter = this.waiters.shift();
    if (waiter) waiter(item);
    else this.inbox.push(item);
  }

  /** The next frame or close, in the order they came (`{frame, text}` or `{closed}`). */
  next(timeoutMs = FRAME_TIMEOUT_MS) {
    if (this.inbox.length) return Promise.resolve(this.inbox.shift());
    if (this.closed) return Promise.resolve({ closed: this.closed });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(deliver), 1);
        reject(new FrameTimeout(`nothing came in ${timeoutMs} ms`));
      }, timeoutMs);
      const deliver = (item) => {
        clearTimeout(timer);
        resolve(item);
      };
      this.waiters.push(deliver);
    });
  }

  /** The next frame; throws ConnectionClosed if the connection closed instead. */
  async frame(timeoutMs) {
    const item = await this.next(timeoutMs);
    if (item.closed) throw item.closed;
    return item.frame;
  }

  sendText(text) {
    if (this.closed) throw this.closed;
    this.socket.send(text);
  }

  send(message) {
    this.sendText(JSON.stringify(message));
  }

  /** Waits so that requests stay under the rate `welcome.limits` announced. */
  async pace() {
    const rate = this.welcome?.limits?.rate_per_s;
    if (!rate) return;
    const wait = this.lastSent + 1000 / rate - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    this.lastSent = Date.now();
  }

  /**
   * Sends `message` with a fresh id; resolves with the frame answering it (events that come first go to
   * `onEvent`), or rejects with ArenaError when the answer is an `error`.
   */
  async request(message, onEvent = () => {}) {
    await this.pace();
    const id = this.nextId++;
    this.send({ ...message, id });
    for (;;) {
      const frame = await this.frame();
      if (frame.id === id) {
        if (frame.type === 'error') throw new ArenaError(frame);
        return frame;
      }
      onEvent(frame);
    }
  }

  async hello(name, { token = null, bot = true } = {}) {
    const hello = { type: 'hello', name, bot };
    if (token) hello.token = token;
    const welcome = await this.request(hello);
    if (welcome.protocol !== PROTOCOL) {
      this.close();
      throw new ProtocolMismatch(welcome.protocol);
    }
    this.welcome = welcome;
    return welcome;
  }

  close() {
    this.socket.close();
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;

/**
 * When to come back after a lost connection, and the loop that does it. A game outlives its connections: the
 * server keeps rooms and games in its store, and seats a player who says `hello` with the same token again (a
 * resumed `welcome`, then `game_state`: its room and game), on whichever process answers. The policy is the Python
 * SDK's (freecell_arena_client.runner.Reconnect), so that bots in either language treat a server alike:
 *
 * - 1012 (the process is stopping, another takes the game): at once, after a random 0 to `firstDelayMs` so that a
 *   process's players do not all come back in the same instant; also a request answered `shutting_down` (the
 *   process has stopped serving, its 1012 is on the way);
 * - any other lost connection (1006 from a killed process, 1008, 1009, 1011, a server silent past a timeout), a
 *   connection that does not open, a `hello` answered "not now" (HELLO_AGAIN): after `firstDelayMs`, doubling up
 *   to `maxDelayMs`, with jitter;
 * - given up (ReconnectGaveUp) once the attempts have failed in a row for `giveUpAfterMs`;
 * - never after 4000, 4001 or 4002 (another connection plays now, the token was revoked, a ban), a `hello` refused
 *   for good, or an error that is no lost connection (a refused request, the bot's own bug): those are thrown.
 */
export class Reconnect {
  constructor({ firstDelayMs = 250, maxDelayMs = 5_000, giveUpAfterMs = 60_000 } = {}) {
    this.firstDelayMs = firstDelayMs;
    this.maxDelayMs = maxDelayMs;
    this.giveUpAfterMs = giveUpAfterMs;
  }

  /** The wait before the `attempt`th attempt in a row (from 1): doubling, capped, times a random 0.5 to 1. */
  delay(attempt) {
    return Math.min(this.maxDelayMs, this.firstDelayMs * 2 ** Math.max(0, attempt - 1)) * (0.5 + Math.random() / 2);
  }

  /** The wait after a 1012: a random 0 to `firstDelayMs`. */
  restartDelay() {
    return Math.random() * this.firstDelayMs;
  }

  /**
   * What `error`, having ended a connection's use, calls for: 'restart' (back at once), 'backoff', or 'stop' (throw
   * it). `hello`: the error answered a `hello`, where the "not now" answers are tried again.
   */
  classify(error, { hello = false } = {}) {
    if (error instanceof ConnectionClosed) {
      if (error.final) return 'stop';
      return error.code === CLOSE_SERVICE_RESTART ? 'restart' : 'backoff';
    }
    if (error instanceof ConnectFailed || error instanceof FrameTimeout) return 'backoff';
    if (error instanceof ArenaError && hello && HELLO_AGAIN.includes(error.code)) return 'backoff';
    if (error instanceof ArenaError && error.code === 'shutting_down') return 'restart';
    return 'stop';
  }

  /**
   * `session(connection, welcome)`'s answer on a new connection, and on another whenever that one is lost (as the
   * policy above says). Each connection says `hello` as `name` with the token the last `welcome` gave (at first
   * `token`: a bot account's, or none for a new player), so the server seats the same player again and `session`
   * picks up from the resumed state. `onWelcome` sees every `welcome`; `log` is told each retry and its wait.
   */
  async run(url, name, session, { token = null, onWelcome = () => {}, log = () => {} } = {}) {
    let failingSince = null; // when the attempts in a row began failing (null: the last one got a welcome)
    let attempt = 0;
    for (;;) {
      let connection = null;
      let welcome;
      try {
        connection = await Connection.open(url);
        welcome = await connection.hello(name, { token });
      } catch (error) {
        connection?.close();
        if (this.classify(error, { hello: true }) === 'stop') throw error;
        failingSince ??= Date.now();
        const waited = Date.now() - failingSince;
        if (waited >= this.giveUpAfterMs) throw new ReconnectGaveUp(error, waited);
        attempt += 1;
        const wait = this.delay(attempt);
        log(`${error.message}; trying again in ${seconds(wait)}`);
        await sleep(wait);
        continue;
      }
      failingSince = null;
      token = welcome.token;
      onWelcome(welcome);
      let result;
      try {
        result = await session(connection, welcome);
      } catch (error) {
        connection.close();
        const step = this.classify(error);
        if (step === 'stop') throw error;
        failingSince = Date.now();
        attempt = 1;
        const wait = step === 'restart' ? this.restartDelay() : this.delay(attempt);
        log(`${error.message}; ${step === 'restart' ? 'the server is restarting: ' : ''}reconnecting in ${seconds(wait)}`);
        await sleep(wait);
        continue;
      }
      connection.close();
      return result;
    }
  }
}
