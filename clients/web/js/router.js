/**
 * Where the page is: a room's link is `/r/CODE` (the server serves the app there); the other views live
 * after `#` on `/` (`#/daily`, `#/account`, `#/leaderboards/freecell?board=daily`, `#/replay/GAME`, `#/history/PLAYER`,
 * `#/player/PLAYER`, `#/review/CODE`, `#/tournaments`, `#/tournament/ID`, `#/review/daily/VARIANT/DAY`,
 * `#/rules/VARIANT`), so the server needs no route per view; `/mod` (or `#/mod`) is the moderators' console.
 * `#/r/CODE` works too, for a static server in development.
 * `?server=` is kept on every link so a development page stays on its server.
 */

const ROOM_CODE = /^[A-Za-z0-9]{1,32}$/;

export function parseRoute(location) {
  const pathMatch = /^\/r\/([^/]+)\/?$/.exec(location.pathname);
  const hash = location.hash.replace(/^#/, '');
  const [hashPath, hashQuery = ''] = hash.split('?');
  const parts = hashPath.split('/').filter(Boolean).map(decodeURIComponent);
  const query = new URLSearchParams(hashQuery);
  if (pathMatch && !parts.length) return roomRoute(decodeURIComponent(pathMatch[1]), location);
  if ((/^\/mod\/?$/.test(location.pathname) && !parts.length) || parts[0] === 'mod') return { page: 'mod', query }; // the moderators' console
  const [page, ...rest] = parts;
  if (page === 'r' && rest[0]) return roomRoute(rest[0], location);
  if (page === 'daily') return { page: 'daily', variant: rest[0] ?? null, query };
  if (page === 'leaderboards') return { page: 'leaderboards', variant: rest[0] ?? 'freecell', query };
  if (page === 'replay' && rest[0]) return { page: 'replay', gameId: rest[0], query };
  if (page === 'history') return { page: 'history', playerId: rest[0] ?? null, query };
  if (page === 'account') return { page: 'account', query };
  if (page === 'tournaments') return { page: 'tournaments', query };
  if (page === 'tournament' && rest[0]) return { page: 'tournament', tournamentId: rest[0], query };
  if (page === 'rules') return { page: 'rules', variant: rest[0] ?? 'freecell', query };
  if (page === 'player') return { page: 'player', playerId: rest[0] ?? null, query };
  if (page === 'review' && rest[0] === 'daily' && rest[1] && /^\d{4}-\d{2}-\d{2}$/.test(rest[2] ?? '')) {
    return { page: 'review', code: null, variant: rest[1], day: rest[2], query };
  }
  if (page === 'review' && rest[0] && ROOM_CODE.test(rest[0])) return { page: 'review', code: rest[0].toUpperCase(), query };
  return { page: 'landing', query };
}

function roomRoute(code, location) {
  if (!ROOM_CODE.test(code)) return { page: 'landing', badCode: code, query: new URLSearchParams() };
  const search = new URLSearchParams(location.search);
  const watch = search.get('watch') === '1';
  const by = search.get('by')?.slice(0, 32) ?? null; // who shared the link and what they race: words for a first visit
  return { page: 'room', code: code.toUpperCase(), watch, invite: by ? { by, variant: search.get('v') } : null };
}

/** The search part every link keeps (only `?server=`, for development). */
export function keptSearch(location) {
  const server = new URLSearchParams(location.search).get('server');
  return server ? `?server=${encodeURIComponent(server)}` : '';
}

/** A room's link, shareable: absolute, on the page's own origin; `by` and `variant` let a friend's first visit say
 * who invited them to what (text the page shows as text, nothing it trusts). */
export function roomLink(location, code, { by = null, variant = null } = {}) {
  const search = new URLSearchParams(keptSearch(location).slice(1));
  if (by) search.set('by', by);
  if (variant) search.set('v', variant);
  return `${location.origin}/r/${encodeURIComponent(code)}${search.size ? `?${search}` : ''}`;
}

/** An in-app link to a hash view: `/?server=..#/leaderboards/freecell`. */
export function viewHref(location, hashPath) {
  return `/${keptSearch(location)}#${hashPath}`;
}

export function roomHref(location, code) {
  return `/r/${encodeURIComponent(code)}${keptSearch(location)}`;
}

/** The room code in what a player typed or pasted: a code, or a link ending in /r/CODE. */
export function codeFromInput(text) {
  const trimmed = (text ?? '').trim();
  const link = /\/r\/([A-Za-z0-9]+)\/?(?:[?#].*)?$/.exec(trimmed);
  const code = link ? link[1] : trimmed.replace(/[\s-]/g, '');
  return ROOM_CODE.test(code) ? code.toUpperCase() : null;
}
