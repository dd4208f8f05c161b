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
 * is listed first, a winner by time included); while it runs, those who won first, then most cards home, then
 * fewer moves.
 */
export function progressTable(room, standings = null) {
  const rank = new Map((standings ?? []).map((row) => [row.player_id, row.rank]));
  const won = (row) => (row.status === 'won' ? 0 : 1);
  return [...(room?.progress ?? [])].sort((a, b) => (rank.get(a.player_id) ?? Infinity) - (rank.get(b.player_id) ?? Infinity)
    || won(a) - won(b) || b.cards_on_foundations - a.cards_on_foundations || a.moves - b.moves || a.name.localeCompare(b.name));
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
