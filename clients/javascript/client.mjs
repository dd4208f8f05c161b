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
  constructor(code, reason) {
    super(`the connection closed (${code}${reason ? `: ${reason}` : ''})`);
    this.code = code;
    this.reason = reason;
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
  /** Opens a websocket to `url` (ws://127.0.0.1:8765/); resolves once open. */
  static async open(url) {
    const socket = new (await webSocketClass())(url);
    const connection = new Connection(socket);
    return new Promise((resolve, reject) => {
      socket.addEventListener('open', () => resolve(connection), { once: true });
      socket.addEventListener('error', () => reject(new Error(`cannot connect to ${url}`)), { once: true });
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
        reject(new Error(`nothing came in ${timeoutMs} ms`));
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
