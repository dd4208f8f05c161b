/**
 * The daily challenge: today's deal per variant (par, when it closes, the commitment; the seeds and
 * solutions of closed days), and playing it: your first game of the day is ranked, later ones are not, as
 * the server says. After the game, the day's board around you.
 */

import { dataTable, formatClock, formatTime, h, notice, replace } from '../dom.js';
import { GameView, NO_HINTS, NO_HINTS_IN_PRACTICE } from '../game-view.js';
import { VARIANTS, formatDuration, variantName } from '../notation.js';
import { viewHref } from '../router.js';
import { loadStreak, playerLink, shareButton } from '../compete.js';
import { reportButton } from '../moderation.js';

export function dailyPage(main, context) {
  return context.variant ? dailyGame(main, context) : dailyList(main, context);
}

function dailyList(main, { session, location }) {
  const sections = VARIANTS.map((variant) => h('section', { class: 'card-panel', 'aria-labelledby': `daily-${variant.id}`, dataset: { variant: variant.id } },
    h('h2', { id: `daily-${variant.id}` }, variant.name), h('p', {}, 'Loading…')));
  main.replaceChildren(h('h1', {}, 'Daily challenge'),
    h('p', {}, 'One deal per variant each UTC day, the same for everyone. Your first game of the day counts on the day\u2019s board; later ones are practice. Each deal\u2019s commitment is published before it opens, and its seed when it closes, so anyone can check it was not changed.'),
    h('div', { class: 'daily-grid' }, sections));

  async function load() {
    await Promise.all(VARIANTS.map(async (variant, index) => {
      const section = sections[index];
      const title = section.firstChild;
      try {
        const reply = await session.read({ type: 'get_daily', variant: variant.id });
        const today = reply.deals.find((deal) => deal.status === 'open');
        if (!reply.deals.length) {
          replace(section, title, h('p', {}, 'This server has no daily challenge for this variant.'));
          return;
        }
        const streak = h('div', { class: 'daily-streak' });
        if (!session.anonymous) loadStreak(session, streak, variant.id); // a streak is a player's
        replace(section, title, streak,
          today ? h('p', {}, `Today (${today.day}): par ${today.par ?? '?'} moves; closes ${closesText(today.closes_at)}.`) : h('p', {}, 'No deal is open right now.'),
          today ? h('p', { class: 'daily-actions' }, h('a', { class: 'button-link', href: viewHref(location, `/daily/${variant.id}`) }, `Play today\u2019s ${variant.name}`), ' ',
            h('a', { href: viewHref(location, `/leaderboards/${variant.id}?board=daily`) }, 'Today\u2019s board')) : null,
          dataTable(`${variant.name} daily deals`, ['Day', 'Status', 'Par', 'Seed', 'Review'], reply.deals.map((deal) => ({
            attributes: { dataset: { day: deal.day, status: deal.status } },
            cells: [deal.day, deal.status, deal.par ?? '\u2013', deal.seed === null ? 'secret until it closes' : String(deal.seed),
              deal.status === 'closed' ? h('a', { href: viewHref(location, `/review/daily/${variant.id}/${deal.day}`), 'aria-label': `Review of ${deal.day} against par` }, 'Against par') : '\u2013'],
          }))),
          h('details', { class: 'commitments' }, h('summary', {}, 'Commitments'),
            h('ul', {}, reply.deals.map((deal) => h('li', {}, `${deal.day}: `, h('code', {}, deal.commitment))))));
      } catch (error) {
        replace(section, title, notice(error.code === 'unknown_variant' || error.code === 'unknown_daily'
          ? 'This server has no daily challenge for this variant.' : error.message));
      }
    }));
  }

  return lifecycle(session, load);
}

/** Why a daily game is practice, in words a player acts on (`unranked_reason`, before and after the game). */
export function practiceWhy(reason, location) {
  if (reason === 'new_player') {
    return ['New players rank from tomorrow: today\u2019s deal opened before this player existed, so today\u2019s games are practice (a fresh name must not scout the deal for a ranked try). Your game still marks today as played on your calendar. ',
      h('a', { href: viewHref(location, '/account') }, 'Save this player with a passkey'), ' to keep it for tomorrow on any device.'];
  }
  if (reason === 'played_before') return ['Practice: your first game of today\u2019s deal was the ranked one; later games do not count on the board.'];
  return [];
}

function dailyGame(main, { session, location, variant }) {
  const info = h('div', { class: 'daily-info' });
  const arena = h('div', { class: 'daily-arena' });
  const after = h('div', { class: 'daily-after' });
  main.replaceChildren(h('h1', {}, `Daily ${variantName(variant)}`), info, arena, after);
  let gameView = null;
  let boardShown = false;
  let askedFirst = false;

  const myDaily = () => {
    const game = session.game.game;
    return game && game.daily && game.variant === variant && !game.room_code ? game : null;
  };

  async function load() {
    try {
      await session.ask({ type: 'get_state' }); // a daily game still running (or just finished) comes back here
      const game = myDaily();
      if (!game || (!session.game.playing && game.daily !== await openDay())) { // none today yet
        const reason = await session.ask({ type: 'get_streak', variant }).then((reply) => reply.today_unranked_reason, () => null);
        if (reason) { // said before the game starts (its clock starts with the deal): the player chooses to go
          askedFirst = true;
          replace(info, h('section', { class: 'card-panel practice-note', dataset: { unrankedReason: reason } },
            h('p', {}, ...practiceWhy(reason, location)),
            h('button', { type: 'button', class: 'primary', onclick: async () => { await play(); render(); } }, 'Play today\u2019s deal as practice')));
          return;
        }
        await play();
      }
      render();
    } catch (error) {
      replace(info, notice(error.code === 'already_in_room' ? 'You are in a room: leave it first to play the daily challenge.'
        : error.code === 'game_in_progress' ? 'Another game of yours is still running: finish it first.' : error.message,
      error.code === 'already_in_room' ? h('button', { type: 'button', onclick: async () => { await session.ask({ type: 'leave_room' }).catch(() => null); load(); } }, 'Leave the room') : null));
    }
  }

  /** The day of the deal open now, on the server's clock (a game of a closed day is not today's). */
  async function openDay() {
    const reply = await session.ask({ type: 'get_daily', variant });
    return reply.deals.find((deal) => deal.status === 'open')?.day ?? null;
  }

  async function play() {
    await session.ask({ type: 'play_daily', variant });
    boardShown = false;
  }

  function render() {
    const game = myDaily();
    if (!game) return;
    if (!gameView) {
      const practice = () => session.daily?.variant === variant && !session.daily.ranked;
      gameView = new GameView(session, { scrollToStart: session.game.playing, noHints: () => (practice() ? NO_HINTS_IN_PRACTICE : NO_HINTS) });
      arena.replaceChildren(gameView.element);
    }
    const daily = session.daily?.variant === variant ? session.daily : null;
    const why = daily && !daily.ranked ? practiceWhy(daily.unranked_reason, location) : [];
    replace(info, h('p', { class: 'room-meta', dataset: { ranked: daily ? String(daily.ranked) : '', unrankedReason: daily?.unranked_reason ?? '' } },
      `${game.daily}`, daily ? ` · par ${daily.par} moves · ${daily.ranked ? 'ranked: this game counts on the board' : 'practice'} · closes ${closesText(daily.closes_at)}` : ''),
    why.length && session.game.playing && !askedFirst ? h('p', { class: 'practice-note hint' }, ...why) : null);
    if (!session.game.playing && !boardShown) {
      boardShown = true;
      showBoard(game.daily, game.game_id);
    }
  }

  async function showBoard(day, gameId) {
    replace(after, h('p', {}, 'Loading the day\u2019s board…'));
    let reply;
    try {
      reply = await session.ask({ type: 'get_leaderboard', variant, board: 'daily', day, around: session.playerId, limit: 11 });
    } catch {
      reply = await session.ask({ type: 'get_leaderboard', variant, board: 'daily', day, limit: 10 }).catch((error) => error);
    }
    if (reply instanceof Error) {
      replace(after, notice(reply.message));
      return;
    }
    const streak = h('div', { class: 'daily-streak' });
    loadStreak(session, streak, variant);
    const daily = session.daily?.variant === variant && session.daily.day === day ? session.daily : null;
    const practice = daily && !daily.ranked;
    replace(after, h('section', { class: 'card-panel daily-result', 'aria-labelledby': 'daily-result-title' },
      h('h2', { id: 'daily-result-title' }, 'Your day'),
      practice ? h('p', { class: 'practice-note', dataset: { unrankedReason: daily.unranked_reason ?? '' } }, 'This game was practice, so it is not on the day\u2019s board and no streak grows from it. ', ...practiceWhy(daily.unranked_reason, location)) : null,
      streak, shareButton(session, gameId, location)),
    h('section', { class: 'card-panel', 'aria-labelledby': 'daily-board-title' },
      h('h2', { id: 'daily-board-title' }, `The day\u2019s board (${reply.total} ${reply.total === 1 ? 'winner' : 'winners'})`),
      reply.par !== null ? h('p', {}, `Par: ${reply.par} moves.`) : null,
      boardTable(reply, session, location, practice ? 'No ranked winner yet today: your game was practice.' : undefined),
      h('p', {}, h('a', { href: viewHref(location, `/leaderboards/${variant}?board=daily&day=${day}`) }, 'The whole board'), ' \u00b7 ',
        h('button', { type: 'button', onclick: async () => { await play().catch((error) => replace(after, notice(error.message))); render(); } }, 'Play again (practice)'))));
  }

  const stop = lifecycle(session, load);
  const unsubscribe = session.subscribe((reason) => {
    if (reason !== 'pending') render();
  });
  return {
    destroy() {
      stop.destroy();
      unsubscribe();
      gameView?.destroy();
    },
  };
}

/** When a day closes, in words: "in 5 h 12 min (00:00 UTC)". */
export function closesText(iso, now = Date.now()) {
  const left = Date.parse(iso) - now;
  if (Number.isNaN(left)) return '';
  const minutes = Math.max(0, Math.round(left / 60000));
  const span = minutes >= 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${minutes} min`;
  return `in ${span} (${new Date(iso).toISOString().slice(11, 16)} UTC)`;
}

/** A board's rows as a table; your row is marked; names lead to histories. */
export function boardTable(reply, session, location, empty = 'No winner on this board yet.') {
  if (!reply.entries.length) return h('p', {}, empty);
  const finished = reply.board === 'daily' ? formatClock : formatTime; // a day's board names its day once
  const table = dataTable('Leaderboard', ['Rank', 'Player', 'Moves', 'Time', 'Finished', 'Replay'], reply.entries.map((row) => ({
    attributes: { class: row.player_id === session.playerId ? 'me' : '', dataset: { playerId: row.player_id, rank: row.rank } },
    cells: [String(row.rank), [playerLink(location, row.player_id, row.name, row.claimed), ' ',
      reportButton(session, { playerId: row.player_id, name: row.name, gameId: row.game_id })],
      String(row.player_moves), formatDuration(row.time_ms), finished(row.finished_at),
      h('a', { href: viewHref(location, `/replay/${encodeURIComponent(row.game_id)}`), 'aria-label': `Replay of ${row.name}` }, 'Replay')],
  })));
  table.classList.add('leaderboard-table'); // a phone drops the finishing time (styles.css)
  return table;
}

/** Runs `load` once the session is open (now, or when it opens), or at once on a page without a player (its reads
 * go over HTTP: `session.read`); the page's destroy. */
export function lifecycle(session, load) {
  let loaded = false;
  const run = () => {
    if (loaded || !(session.isOpen || session.anonymous)) return;
    loaded = true;
    load();
  };
  const unsubscribe = session.subscribe((reason) => {
    if (reason === 'connection') run();
  });
  run();
  return { destroy: unsubscribe };
}
