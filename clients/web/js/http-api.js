/** The server's read-only JSON API over plain HTTP (docs/leaderboards.md): what a first visit reads before it has
 * a name (and a socket). Seeds beyond 2^53 stay exact, as on the socket. */

import { httpBase, parseMessage, serverUrl } from './connection.js';

export async function apiGet(location, path) {
  return getJson(httpBase(serverUrl(location)), path);
}

async function getJson(base, path) {
  const response = await fetch(`${base}${path}`, { headers: { accept: 'application/json' } });
  const body = parseMessage(await response.text());
  if (!response.ok) throw Object.assign(new Error(body.message ?? response.statusText), { code: body.code });
  return body;
}

/**
 * The HTTP route of each read a page makes on the socket (docs/protocol.md, "HTTP"): its path, with `{field}` taken
 * from the request, and the query parameters it takes. A leaderboard's route depends on its board.
 */
const READ_ROUTES = {
  get_daily: ['/api/daily/{variant}', ['day']],
  'get_leaderboard:daily': ['/api/leaderboards/{variant}/daily', ['day', 'bots', 'limit', 'cursor', 'around']],
  'get_leaderboard:deal': ['/api/leaderboards/{variant}/deal/{seed}', ['bots', 'limit', 'cursor', 'around']],
  get_season: ['/api/leaderboards/{variant}/season', ['days', 'bots', 'limit', 'cursor', 'around']],
  get_ratings: ['/api/ratings/{variant}', ['bots', 'limit', 'around']],
  get_tournaments: ['/api/tournaments', ['bots', 'player_id']],
  get_tournament: ['/api/tournaments/{tournament_id}', ['around']],
  get_player: ['/api/players/{player_id}', []],
  get_history: ['/api/players/{player_id}/history', ['limit', 'cursor']],
  get_streak: ['/api/players/{player_id}/streak/{variant}', ['month']],
  get_quick_races: ['/api/quick-races', []],
};

/** The address of `message`'s HTTP route, or null when the request has none (it needs a player, or a socket). */
export function readPath(message) {
  const route = READ_ROUTES[message.board ? `${message.type}:${message.board}` : message.type];
  if (!route) return null;
  const [template, query] = route;
  let missing = false;
  const path = template.replace(/\{(\w+)\}/g, (_, field) => {
    if (message[field] === undefined || message[field] === null) missing = true;
    return encodeURIComponent(String(message[field]));
  });
  if (missing) return null;
  const search = new URLSearchParams(query.filter((field) => message[field] !== undefined && message[field] !== null && message[field] !== false)
    .map((field) => [field, String(message[field])]));
  return search.size ? `${path}?${search}` : path;
}

/** A read over HTTP, answered as the socket answers it; refused like a socket's error (`code`, `message`). */
export function readOverHttp(wsUrl, message) {
  const path = readPath(message);
  if (path === null) return Promise.reject(Object.assign(new Error('Choose a name first: this needs a player.'), { code: 'hello_required' }));
  return getJson(httpBase(wsUrl), path);
}
