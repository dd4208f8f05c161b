/**
 * The socket and the protocol state around it: one websocket to the server, `hello` with the token kept in
 * localStorage (so a reload or a lost connection resumes the same player and game), requests by id with
 * their replies as promises, and reconnection on its own with backoff and jitter (as the Python SDK's
 * runner does). Every server message also goes to the listeners, replies included: a `move_accepted` is
 * both the answer to a request and a change to the board.
 */

export const CLOSE_REPLACED = 4000; // the server closed us because the same identity connected elsewhere
export const CLOSE_REVOKED = 4001; // the session this connection said hello with was revoked (signed out)
export const CLOSE_BANNED = 4002; // a moderator banned this player (the reason says why): no reconnect
export const CLOSE_SERVICE_RESTART = 1012; // this server process is stopping (a restart, a drain): reconnect at once
const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 5000;
const REQUEST_TIMEOUT_MS = 30000;

/** The wait before reconnect attempt `attempt` (1, 2, ...): doubling from 250 ms to 5 s, times 0.5-1.0. */
export function backoffDelay(attempt, random = Math.random) {
  const base = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.max(0, attempt - 1));
  return base * (0.5 + random() / 2);
}

/** The wait before the reconnect after a 1012 close: at once, but a random 0-250 ms, so that a process's players
 * do not all come back in the same instant. */
export function restartDelay(random = Math.random) {
  return random() * FIRST_DELAY_MS;
}

/**
 * The websocket address: `?server=ws://host:port/` when given (development: the page served by any static
 * server), else the host the page came from.
 */
export function serverUrl(location) {
  const given = new URLSearchParams(location.search).get('server');
  if (given && /^wss?:\/\//.test(given)) return given;
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}/`;
}

/**
 * The server's frames are I-JSON (protocol 4): every number fits a JavaScript number exactly, and seeds, which
 * run to 2^63 - 1, come as decimal strings; a seed is sent back as the same string. So plain JSON does.
 */
export function parseMessage(text) {
  return JSON.parse(text);
}

export function encodeMessage(message) {
  return JSON.stringify(message);
}

/** A whole number typed by a player (a deal number or a seed), as the decimal string the protocol takes for a
 * seed, exact however large; null if it is not one. */
export function wholeNumber(text) {
  const digits = String(text ?? '').trim();
  if (!/^\d{1,19}$/.test(digits)) return null;
  return BigInt(digits).toString();
}

/** The HTTP base of the same server (for /api/ links): from the websocket address. */
export function httpBase(wsUrl) {
  return wsUrl.replace(/^ws/, 'http').replace(/\/$/, '');
}

export class RequestError extends Error {
  constructor(reply, kind) {
    super(reply.message);
    this.code = reply.code;
    this.reason = reply.reason ?? null;
    this.kind = kind;
  }
}

export class ConnectionLost extends Error {}

/** Where the identity lives: one token per server address. */
export class IdentityStore {
  constructor(storage, server) {
    this.storage = storage;
    this.key = `freecell-arena:identity:${server}`;
  }

  load() {
    try {
      const saved = JSON.parse(this.storage.getItem(this.key) ?? 'null');
      return saved && typeof saved.name === 'string' ? saved : null;
    } catch {
      return null;
    }
  }

  save(identity) {
    this.storage.setItem(this.key, JSON.stringify(identity));
  }

  /** A moderator banned this identity: the moderator's public `reason` is kept with it, across reloads, and so is
   * the token (an unsaved player is nothing but their token: a lifted ban gives them back with it). */
  markBanned(reason) {
    const saved = this.load();
    if (saved) this.save({ ...saved, banned: reason });
  }

  /** The token goes, the name stays as a suggestion; `signedOut`: remembered across reloads (a revoked session
   * must not come back as a new player under the same, claimed, name). */
  forgetToken({ signedOut = false } = {}) {
    const saved = this.load();
    if (saved) this.save(signedOut ? { name: saved.name, signed_out: true } : { name: saved.name });
  }

  forget() {
    this.storage.removeItem(this.key);
  }
}

export class Connection {
  /**
   * `onMessage(message)` gets every server message; `onState(state, detail)` every change of the
   * connection's state: "idle", "connecting", "open", "reconnecting", "replaced", "refused" (the name).
   * Without them (a connection started before the app has loaded: `startEarly`), both are kept in order
   * until `listen` gives them.
   */
  constructor({ url, identity, onMessage = null, onState = null, WebSocketImpl = globalThis.WebSocket, random = Math.random }) {
    this.url = url;
    this.identity = identity;
    this.onMessage = onMessage;
    this.onState = onState;
    this.unheard = onMessage ? null : [];
    this.WebSocketImpl = WebSocketImpl;
    this.random = random;
    this.socket = null;
    this.state = 'idle';
    this.nextId = 1;
    this.waiting = new Map();
    this.attempt = 0;
    this.retryTimer = null;
    this.welcome = null;
    this.lastError = null;
  }

  get playerId() {
    return this.welcome?.player_id ?? null;
  }

  /** Gives the listeners, and replays to them what happened before, in order. */
  listen({ onMessage, onState }) {
    this.onMessage = onMessage;
    this.onState = onState;
    const unheard = this.unheard ?? [];
    this.unheard = null;
    for (const [kind, ...args] of unheard) {
      if (kind === 'state') this.onState?.(...args);
      else this.onMessage(...args);
    }
  }

  /** Connects (or reconnects) as `name`, resuming the saved token if there is one. */
  start() {
    clearTimeout(this.retryTimer);
    if (this.socket) return;
    this.setState(this.attempt ? 'reconnecting' : 'connecting');
    let socket;
    try {
      socket = new this.WebSocketImpl(this.url);
    } catch (error) {
      this.lastError = String(error.message ?? error);
      this.scheduleRetry();
      return;
    }
    this.socket = socket;
    socket.addEventListener('open', () => this.greet());
    socket.addEventListener('message', (event) => this.receive(event.data));
    socket.addEventListener('close', (event) => this.closed(socket, event));
  }

  /** Ends the connection for good (no reconnect). */
  stop() {
    clearTimeout(this.retryTimer);
    const socket = this.socket;
    this.socket = null;
    this.failWaiting('the connection was closed');
    socket?.close();
    this.setState('idle');
  }

  async greet() {
    const saved = this.identity.load();
    const hello = { type: 'hello', name: saved?.name ?? 'player' };
    if (saved?.token) hello.token = saved.token;
    try {
      try {
        this.welcome = await this.request(hello);
      } catch (error) {
        if (error instanceof RequestError && error.code === 'revoked_token') {
          if (saved?.banned) this.banned(saved.banned, { revoked: true }); // the ban revoked it: a passkey, once lifted
          else this.signedOut(); // this browser's session was revoked elsewhere: the passkey signs in again
          return;
        }
        if (!(error instanceof RequestError) || error.code !== 'unknown_token') throw error;
        this.identity.forgetToken(); // a server that lost its data: start over as a new player
        this.welcome = await this.request({ type: 'hello', name: hello.name });
      }
    } catch (error) {
      this.refused(error);
      return;
    }
    this.identity.save({ name: this.welcome.name, token: this.welcome.token, player_id: this.welcome.player_id });
    this.attempt = 0;
    this.lastError = null;
    this.setState('open', this.welcome);
  }

  /**
   * The server refused the hello. A name it will not take waits for the player to choose another ("refused");
   * anything else (too many new players from this address, a server shutting down) is retried with backoff.
   */
  refused(error) {
    if (!(error instanceof RequestError)) return; // the connection dropped: its close schedules the retry
    this.lastError = error.message;
    const socket = this.socket;
    if (error.code === 'banned') {
      this.banned(error.message, { revoked: error.reason === 'revoked_token' }); // the ban ended this session
    } else if (error.code === 'invalid_message' || error.code === 'name_taken') {
      this.socket = null;
      socket?.close();
      this.setState('refused', { error: error.message });
    } else {
      socket?.close(); // closed() schedules the next attempt and says why
    }
  }

  receive(data) {
    let message;
    try {
      message = parseMessage(data);
    } catch {
      return; // the server only sends JSON; anything else is not ours to act on
    }
    const id = message.id;
    if (id !== undefined && id !== null && this.waiting.has(id)) {
      const { resolve, reject, kind, timer } = this.waiting.get(id);
      this.waiting.delete(id);
      clearTimeout(timer);
      if (message.type === 'error') reject(new RequestError(message, kind));
      else resolve(message);
    }
    if (this.unheard) this.unheard.push(['message', message]);
    else this.onMessage(message);
  }

  closed(socket, event) {
    if (this.socket !== socket) return;
    this.socket = null;
    this.welcome = null;
    this.failWaiting('the connection dropped');
    if (event.code === CLOSE_REPLACED) {
      this.setState('replaced');
      return;
    }
    if (event.code === CLOSE_REVOKED) {
      this.signedOut();
      return;
    }
    if (event.code === CLOSE_BANNED) {
      this.banned(event.reason);
      return;
    }
    if (event.code === CLOSE_SERVICE_RESTART) {
      // not an error: another process takes the game from the store (and the attempts until one answers say so)
      this.lastError = 'the server is restarting';
      this.scheduleRetry({ delay: restartDelay(this.random), restart: true });
      return;
    }
    this.lastError = event.reason || this.lastError || (event.code === 1006 ? 'the server cannot be reached' : `closed (${event.code})`);
    this.scheduleRetry();
  }

  /** A moderator banned this player: the page says why (the moderator's public reason, from the close or from the
   * refused hello) and stops; the identity keeps the reason and its token, so a reload shows the same screen and a
   * check after a lift gives the player back. `revoked`: the ban revoked this browser's session (a saved player):
   * only their passkey signs them in again. */
  banned(reason, { revoked = false } = {}) {
    const socket = this.socket;
    this.socket = null;
    this.welcome = null;
    socket?.close();
    this.lastError = (reason || '').replace(/^[^:]*banned[^:]*:\s*/, '') || 'no reason was given';
    this.identity.markBanned(this.lastError);
    this.setState('banned', { error: this.lastError, revoked });
  }

  /** The session is over (revoked): the token goes, the name stays as a suggestion; no reconnect. */
  signedOut() {
    const socket = this.socket;
    this.socket = null;
    this.welcome = null;
    socket?.close();
    this.identity.forgetToken({ signedOut: true });
    this.setState('signed_out');
  }

  /** The next attempt, after the backoff (or `delay`: a restart's). `restart`: the server said it is restarting. */
  scheduleRetry({ delay = undefined, restart = false } = {}) {
    this.attempt += 1;
    const wait = delay ?? backoffDelay(this.attempt, this.random);
    this.setState('reconnecting', { delay: wait, error: this.lastError, restart });
    this.retryTimer = setTimeout(() => this.start(), wait);
  }

  failWaiting(why) {
    for (const { reject, timer } of this.waiting.values()) {
      clearTimeout(timer);
      reject(new ConnectionLost(why));
    }
    this.waiting.clear();
  }

  setState(state, detail = null) {
    this.state = state;
    if (this.unheard) this.unheard.push(['state', state, detail]);
    else this.onState?.(state, detail);
  }

  /** Sends `message` with a fresh id; resolves with the reply, rejects with RequestError or ConnectionLost. */
  request(message, timeoutMs = REQUEST_TIMEOUT_MS) {
    return this.begin(message, timeoutMs).reply;
  }

  /** Like `request`, also giving the id at once (a move is marked pending under it until its answer). */
  begin(message, timeoutMs = REQUEST_TIMEOUT_MS) {
    const socket = this.socket;
    if (!socket || socket.readyState !== 1) {
      return { id: null, reply: Promise.reject(new ConnectionLost('not connected')) };
    }
    const id = this.nextId++;
    const reply = new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new ConnectionLost('no answer in time'));
      }, timeoutMs);
      this.waiting.set(id, { resolve, reject, kind: message.type, timer });
      socket.send(encodeMessage({ ...message, id }));
    });
    return { id, reply };
  }
}

let early = null;

/**
 * A returning player's connection, started by boot.js as soon as this module has arrived: the socket opens,
 * says hello and takes the resumed state while the rest of the app is still loading (on a first visit the
 * modules take about as long as all of that). A new player (no saved name) is asked first, as before.
 */
export function startEarly(location, storage) {
  const url = serverUrl(location);
  const identity = new IdentityStore(storage, url);
  if (early || !identity.load() || identity.load().signed_out || identity.load().banned) return; // banned: app.js
  early = new Connection({ url, identity });
  early.start();
}

/** The connection `startEarly` began for `url`, once (the session takes it); else null. */
export function takeEarly(url) {
  const connection = early?.url === url ? early : null;
  early = null;
  return connection;
}
