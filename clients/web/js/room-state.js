/**
 * A room as the page holds it: the whole `room` the server sends on joining and on status changes, with the
 * small protocol-3 events put in (`member_joined`, `member_left`, `member_connection`, `progress`), as the
 * Python SDK's `apply_membership` does. Pure functions: each returns a new room.
 */

export function applyMembership(room, event) {
  if (!room || event.code !== room.code) return room;
  if (event.type === 'member_joined') {
    const members = room.members.filter((member) => member.player_id !== event.member.player_id);
    return { ...room, members: [...members, event.member] };
  }
  if (event.type === 'member_left') {
    const members = room.members.filter((member) => member.player_id !== event.player_id);
    const progress = room.status === 'lobby'
      ? (room.progress ?? []).filter((row) => row.player_id !== event.player_id)
      : room.progress;
    return { ...room, members, progress, host_id: event.host_id };
  }
  if (event.type === 'member_connection') {
    const members = room.members.map((member) => (
      member.player_id === event.player_id ? { ...member, connected: event.connected } : member));
    return { ...room, members };
  }
  return room;
}

/** The room with one player's `progress` row replaced (or added). */
export function applyProgress(room, event) {
  if (!room || event.code !== room.code) return room;
  const rows = (room.progress ?? []).filter((row) => row.player_id !== event.progress.player_id);
  return { ...room, progress: [...rows, event.progress] };
}

export function players(room) {
  return (room?.members ?? []).filter((member) => member.role === 'player');
}

export function spectators(room) {
  return (room?.members ?? []).filter((member) => member.role === 'spectator');
}

export function memberOf(room, playerId) {
  return (room?.members ?? []).find((member) => member.player_id === playerId) ?? null;
}

/**
 * Progress rows in race order. Once the race is over, the standings' order (`standings`: whoever ranked first
 * is listed first, a winner by time included) and their final counts, outcome and `rank` (a row left "playing" when
 * the time limit ended the race reads "out of time"); while it runs, those who won first, then most cards home,
 * then fewer moves.
 */
export function progressTable(room, standings = null) {
  const final = new Map((standings ?? []).map((row) => [row.player_id, row]));
  const rows = (room?.progress ?? []).map((row) => finalRow(row, final.get(row.player_id)));
  const shown = new Set(rows.map((row) => row.player_id));
  rows.push(...[...final.values()].filter((row) => !shown.has(row.player_id)).map((row) => finalRow({ player_id: row.player_id, name: row.name }, row)));
  const won = (row) => (row.status === 'won' ? 0 : 1);
  return rows.sort((a, b) => (a.rank ?? Infinity) - (b.rank ?? Infinity)
    || won(a) - won(b) || b.cards_on_foundations - a.cards_on_foundations || a.moves - b.moves || a.name.localeCompare(b.name));
}

function finalRow(row, standing) {
  if (!standing) return row;
  return { ...row, status: standing.outcome, moves: standing.moves, cards_on_foundations: standing.cards_on_foundations,
    time_ms: standing.time_ms, rank: standing.rank };
}

/**
 * The server's clock minus ours, from a `countdown` (it starts `seconds` from when it was sent). Half the
 * trip is ignored: on the loopback and on a decent line it is a few milliseconds.
 */
export function clockOffsetFromCountdown(countdown, receivedAt = Date.now()) {
  const startsAt = Date.parse(countdown.starts_at);
  if (Number.isNaN(startsAt) || typeof countdown.seconds !== 'number') return null;
  return startsAt - countdown.seconds * 1000 - receivedAt;
}

/** Whole seconds left before `starts_at`, on the server's clock. */
export function secondsUntil(startsAt, now = Date.now(), clockOffsetMs = 0) {
  const start = Date.parse(startsAt);
  if (Number.isNaN(start)) return 0;
  return Math.max(0, Math.ceil((start - (now + clockOffsetMs)) / 1000));
}
