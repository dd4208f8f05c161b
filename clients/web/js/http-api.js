/** The server's read-only JSON API over plain HTTP (docs/leaderboards.md): what a first visit reads before it has
 * a name (and a socket). Seeds beyond 2^53 stay exact, as on the socket. */

import { httpBase, parseMessage, serverUrl } from './connection.js';

export async function apiGet(location, path) {
  const response = await fetch(`${httpBase(serverUrl(location))}${path}`, { headers: { accept: 'application/json' } });
  const body = parseMessage(await response.text());
  if (!response.ok) throw Object.assign(new Error(body.message ?? response.statusText), { code: body.code });
  return body;
}
