/**
 * A room, at its link `/r/CODE`: who is in it (live), the host's Start, the countdown on the server's clock,
 * then the race: your board beside every opponent's progress (counts only), or the progress alone for a
 * spectator; at the end the standings, the deal, and every player's replay.
 */

import { confirmAction } from '../dialog.js';
import { h, replace } from '../dom.js';
import { GameView, dealLabel } from '../game-view.js';
import { counted, formatDuration, variantById, variantName } from '../notation.js';
import { players, progressTable, secondsUntil, spectators } from '../room-state.js';
import { progressCounts, progressStatus, ratingNote } from '../race-words.js';
import { roomHref, roomLink, viewHref } from '../router.js';
import { PROVISIONAL_NOTE, deltaText, playerLink, ratingText, shareButton } from '../compete.js';
import { reportButton } from '../moderation.js';

const STATUS_WORDS = { lobby: 'Waiting for players', countdown: 'Starting', running: 'Racing', finished: 'Finished' };

const JOIN_ERRORS = {
  unknown_room: (code) => `There is no room ${code}. Check the code, or create a race.`,
  room_full: (code) => `Room ${code} is full. You can watch it instead.`,
};

function optionsSummary(room) {
  const options = room.options;
  const parts = [
    options.autoplay ? 'autoplay on' : 'autoplay off',
    (options.undo_allowed ?? variantById(room.variant)?.undoByDefault ?? true) ? 'undo allowed' : 'no undo',
    `up to ${counted(options.max_players, 'player')}`,
    options.time_limit_s ? `${formatDuration(options.time_limit_s * 1000)} time limit` : 'no time limit',
    options.ranking === 'speed' ? 'fastest wins' : 'fewest moves wins',
    ratingNote(room),
  ];
  if (room.quick) parts.push('quick race: it starts by itself');
  return parts.join(' · ');
}

export function roomPage(main, { session, navigate, location, code, watch }) {
  const header = h('div', { class: 'room-header' });
  const notice = h('div', { class: 'room-notice' });
  const lobby = h('div', { class: 'room-lobby' });
  const arena = h('div', { class: 'room-arena' });
  const race = h('aside', { class: 'race-panel', 'aria-label': 'Race' });
  const results = h('div', { class: 'room-results' });
  const invite = h('div', { class: 'room-invite' });
  const play = h('div', { class: 'room-play' }, arena, race);
  const page = h('div', { class: 'room-page', dataset: { roomCode: code } }, header, invite, notice, lobby, play, results);
  main.replaceChildren(page);
  let gameView = null;
  let countdownTimer = null;
  let joined = false;
  let lastHeaderKey = '';
  let lastResultsKey = '';
  let share = null;
  let berserked = false; // a tournament race's berserk, chosen in its countdown

  const room = () => (session.room?.code === code ? session.room : null);
  const botOffer = h('div', { class: 'bot-offer', hidden: true },
    h('p', {}, 'Nobody else is here yet. Race the house bot now? It plays at a person’s pace, and a race with a bot changes no rating.'),
    h('button', { type: 'button', class: 'primary', onclick: () => callBot() }, 'Race the house bot'));
  let botTimer = null;

  async function offerBot() {
    if (botTimer !== null || !room()?.quick) return;
    botTimer = 0;
    const after = await session.ask({ type: 'get_quick_races' }).then((reply) => reply.bot_after_s, () => null);
    if (after === null) return;
    botTimer = setTimeout(() => { botOffer.hidden = false; }, after * 1000);
  }

  async function callBot() {
    botOffer.hidden = true;
    try {
      const reply = await session.raceBot();
      session.say(`${reply.name} is on its way.`, 'race');
    } catch (error) {
      session.say(error.message, 'error');
    }
  }
  const me = () => room()?.members.find((member) => member.player_id === session.playerId) ?? null;

  function showNotice(text, ...actions) {
    replace(notice, text ? h('p', { class: 'form-error', role: 'alert' }, text, ' ', ...actions) : null);
  }

  async function join(spectator = watch) {
    try {
      const state = await session.currentState(); // the session took it in already
      if (state.room?.code === code) {
        joined = true;
        return;
      }
      await session.ask({ type: 'join_room', code, spectator });
      joined = true;
      showNotice(null);
    } catch (error) {
      if (error.code === 'room_started' && !spectator) {
        session.say('The race has already started: you are watching it.', 'race');
        await join(true);
      } else if (error.code === 'room_full') {
        showNotice(JOIN_ERRORS.room_full(code), h('button', { type: 'button', onclick: () => join(true) }, 'Watch'));
      } else if (error.code === 'already_in_room') {
        showNotice(`You are in another room (${session.room?.code ?? 'elsewhere'}).`,
          h('button', { type: 'button', onclick: async () => { await session.request({ type: 'leave_room' }).catch(() => null); join(spectator); } }, 'Leave it and join this one'));
      } else {
        showNotice(JOIN_ERRORS[error.code]?.(code) ?? error.message,
          h('a', { href: roomHref(location, code).replace(/\/r\/.*/, '/') }, 'Back to the start'));
      }
    }
  }

  /** The link to the clipboard; what happened is said beside the button (and in the events). */
  async function copyLink(input, status) {
    let said;
    try {
      await navigator.clipboard.writeText(input.value);
      said = 'Link copied: send it to whoever you race.';
    } catch {
      input.select();
      said = 'Copying is not allowed here: the link is selected, copy it with Ctrl+C.';
    }
    status.textContent = said;
    session.say(said, 'info');
  }

  function renderHeader(current) {
    const seated = players(current).map((member) => [member.player_id, member.bot]); // the rating note counts them
    const key = JSON.stringify([current.status, String(current.seed), current.host_id, current.options, session.playerId, seated]);
    page.dataset.roomStatus = current.status;
    if (key === lastHeaderKey) return;
    lastHeaderKey = key;
    const link = h('input', { type: 'text', readonly: true, value: roomLink(location, code, { by: session.name, variant: current.variant }), class: 'room-link' });
    const copied = h('span', { class: 'copy-status hint', role: 'status' });
    replace(header,
      h('h1', {}, `Room ${code}`, ' ', h('span', { class: `badge status-${current.status}`, dataset: { roomStatus: current.status } }, STATUS_WORDS[current.status] ?? current.status)),
      h('p', { class: 'room-meta' }, `${variantName(current.variant)} · ${dealLabel(current.variant, current.seed)}`),
      h('p', { class: 'room-options' }, optionsSummary(current)),
      h('div', { class: 'share' }, h('label', { class: 'field inline' }, h('span', { class: 'field-label' }, 'Room link'), link),
        h('button', { type: 'button', onclick: () => copyLink(link, copied) }, 'Copy link'),
        h('button', { type: 'button', class: 'quiet', onclick: leave }, 'Leave room'), copied));
  }

  async function leave() {
    const racing = session.game.playing && session.game.game?.room_code === code;
    if (racing && !await confirmAction({ title: 'Leave the race?', confirm: 'Leave and resign',
      text: 'Leaving the room during the race resigns your game: it ends now with the cards you have home.' })) return;
    await session.request({ type: 'leave_room' }).catch(() => null);
    navigate(viewHref(location, '/'));
  }

  function memberItem(current, member) {
    const badges = [];
    if (member.player_id === current.host_id) badges.push('host');
    if (member.player_id === session.playerId) badges.push('you');
    if (member.bot) badges.push('bot');
    if (!member.connected) badges.push('offline');
    return h('li', { dataset: { playerId: member.player_id, connected: String(member.connected) }, class: member.connected ? '' : 'offline' },
      h('span', { class: 'member-name' }, playerLink(location, member.player_id, member.name)),
      badges.map((badge) => h('span', { class: `badge ${badge}` }, badge)));
  }

  function renderLobby(current) {
    page.classList.toggle('racing', current.status === 'running' || current.status === 'finished');
    const seated = players(current);
    const watching = spectators(current);
    const isHost = current.host_id === session.playerId;
    const parts = [
      h('section', { class: 'members card-panel', 'aria-labelledby': 'players-title' },
        h('h2', { id: 'players-title' }, `Players (${seated.length}/${current.options.max_players})`),
        h('ul', { class: 'member-list', 'aria-label': 'Players' }, seated.map((member) => memberItem(current, member))),
        watching.length ? [h('h3', {}, `Spectators (${watching.length})`),
          h('ul', { class: 'member-list', 'aria-label': 'Spectators' }, watching.map((member) => memberItem(current, member)))] : null),
    ];
    if (current.series) parts.push(seriesPanel(current, session.playerId));
    if (current.status === 'lobby' && current.quick) {
      parts.push(h('p', { class: 'start', dataset: { quick: '' } }, 'A quick race: it starts by itself once enough players are in (at once when full).'));
      if (seated.length === 1 && seated[0].player_id === session.playerId) parts.push(botOffer);
    } else if (current.status === 'lobby') {
      parts.push(isHost
        ? h('div', { class: 'start' }, h('button', { type: 'button', class: 'primary big', onclick: () => session.request({ type: 'start_race' }).catch(() => null) }, 'Start'),
          h('p', {}, 'Share the link; start when everyone is in.'))
        : h('p', { class: 'start' }, me()?.role === 'spectator' ? 'You are watching. The race begins when the host starts it.' : 'Waiting for the host to start the race.'));
    }
    if (current.status === 'countdown') parts.push(h('p', { class: 'countdown', dataset: { countdown: '' } }));
    const tournament = session.tournamentRace?.code === code ? session.tournamentRace : null;
    if (tournament) parts.push(tournamentPanel(tournament, current));
    replace(lobby, parts);
    updateCountdown();
  }

  /** A tournament's race: back to its page, and berserk in the countdown when offered (half the time, a bonus). */
  function tournamentPanel(tournament, current) {
    const berserk = async () => {
      try {
        await session.ask({ type: 'berserk', tournament_id: tournament.tournament_id });
        berserked = true;
        session.say('Berserk: half the time, a bonus point if you solve it.', 'race');
        update();
      } catch (error) {
        session.say(error.message, 'error');
      }
    };
    return h('p', { class: 'tournament-race' }, h('a', { href: viewHref(location, `/tournament/${encodeURIComponent(tournament.tournament_id)}`) }, 'Tournament page'),
      berserked ? [' ', h('span', { class: 'badge berserk' }, 'berserk')] : null,
      tournament.berserk_allowed && current.status === 'countdown' && !berserked
        ? [' ', h('button', { type: 'button', onclick: berserk }, 'Berserk (half the time, +1 if solved)')] : null);
  }

  function updateCountdown() {
    const element = lobby.querySelector('.countdown');
    const startsAt = session.countdown?.starts_at ?? room()?.starts_at;
    if (!element || !startsAt) return;
    const left = secondsUntil(startsAt, Date.now(), session.clockOffsetMs);
    element.dataset.countdown = String(left);
    element.textContent = left > 0 ? `Starting in ${left}…` : 'Go!';
  }

  function renderRace(current) {
    const over = session.raceOver?.code === code ? session.raceOver : null;
    const rows = progressTable(current, over?.standings);
    if (!rows.length || current.status === 'lobby') {
      replace(race);
      return;
    }
    const total = deckSize(current.variant);
    replace(race, h('h2', {}, current.status === 'finished' ? 'Final progress' : 'Race'),
      h('ol', { class: 'progress-list', 'aria-label': 'Progress of every player' }, rows.map((row) => h('li', {
        dataset: { playerId: row.player_id, status: row.status, cards: row.cards_on_foundations, moves: row.moves },
        class: row.player_id === session.playerId ? 'me' : '',
      },
      h('span', { class: 'member-name' }, row.name, row.player_id === session.playerId ? ' (you)' : ''),
      h('meter', { min: '0', max: String(total), value: String(row.cards_on_foundations), 'aria-label': `${row.name}: cards home` }),
      h('span', { class: 'progress-counts' }, progressCounts(row, total, row.rank))))));
  }

  function renderGame(current) {
    const game = session.game.game;
    const mine = game && game.room_code === code;
    page.classList.toggle('has-game', Boolean(mine));
    if (mine && !gameView) {
      gameView = new GameView(session, { hintsAllowed: () => room()?.options.ranked === false, scrollToStart: game.status === 'playing' });
      arena.replaceChildren(gameView.element);
    } else if (!mine && gameView) {
      gameView.destroy();
      gameView = null;
      arena.replaceChildren();
    }
    if (!mine && current.status !== 'lobby' && me()?.role === 'spectator') {
      replace(arena, h('p', { class: 'spectating' }, current.status === 'finished'
        ? 'The race is over.' : 'You are watching: every player\u2019s progress shows live; replays open when the race is over.'));
    }
  }

  /** Race again, under the results; once someone opened the next race, its join button in the same place (a
   * phone scrolled down to the standings sees it there) and in the notice at the top of the page. */
  function raceAgainBlock(current) {
    if (current.next_code) {
      return h('div', { class: 'race-again' },
        h('button', { type: 'button', class: 'primary', onclick: raceAgain }, 'Join the next race'),
        h('span', {}, ` Room ${current.next_code}: same options, a new deal.`));
    }
    return h('div', { class: 'race-again' },
      h('button', { type: 'button', class: 'primary', onclick: raceAgain }, 'Race again'),
      h('span', {}, ' Same options, a new deal; everyone here is invited.'));
  }

  /** Another quick race of this variant (the house bot at once when nobody waits): this room is left; a game
   * over here keeps its result. */
  async function newQuickRace(current) {
    try {
      await session.request({ type: 'leave_room' }).catch(() => null);
      navigate(roomHref(location, await session.playNow(current.variant)));
    } catch (error) {
      showNotice(error.message);
    }
  }

  function playAgainButton(current) {
    return current.quick ? h('p', { class: 'after-race' },
      h('button', { type: 'button', class: 'primary', onclick: () => newQuickRace(current) }, 'Play again'),
      h('span', {}, ' A new quick race of this variant.')) : null;
  }

  /** Your game is over and the others race on: who is still playing, and (a quick race) another race at once. */
  function raceGoesOn(current) {
    const racing = progressTable(current).filter((row) => row.status === 'playing' && row.player_id !== session.playerId);
    return h('section', { class: 'card-panel race-goes-on', 'aria-labelledby': 'goes-on-title' },
      h('h2', { id: 'goes-on-title' }, 'The race goes on'),
      h('p', {}, racing.length
        ? `${racing.map((row) => row.name).join(', ')} ${racing.length === 1 ? 'is' : 'are'} still playing: the standings come when everyone is done.`
        : 'The standings come when everyone is done.'),
      playAgainButton(current));
  }

  /** The results go above the board once they are what matters (your game over): in view without scrolling past
   * the board, a phone's two screens of it; brought into view when they first appear. */
  function placeResults(shown) {
    const above = results.nextElementSibling === play;
    if (shown && !above) {
      play.before(results);
      requestAnimationFrame(() => results.scrollIntoView({ block: 'start' }));
    } else if (!shown && above) {
      play.after(results);
    }
  }

  async function raceAgain() {
    try {
      navigate(roomHref(location, await session.raceAgain()));
    } catch {
      // announced by the session
    }
  }

  function renderResults(current) {
    const over = session.raceOver?.code === code ? session.raceOver : null;
    const ownGame = session.game.game?.room_code === code ? session.game.game.game_id : null;
    const gameOver = ownGame !== null && !session.game.playing && me()?.role === 'player';
    const stillRacing = progressTable(current).filter((row) => row.status === 'playing').map((row) => row.player_id);
    const key = JSON.stringify([current.status, current.next_code, me() !== null, over !== null, session.raceRatings?.code === code, ownGame, gameOver, stillRacing]);
    if (key === lastResultsKey) return; // drawn again only when what it shows changed, not on every message
    lastResultsKey = key;
    if (current.status !== 'finished') {
      replace(results, gameOver && current.status === 'running' ? raceGoesOn(current) : null);
      replace(invite);
      placeResults(gameOver && current.status === 'running');
      return;
    }
    placeResults(true);
    const member = me() !== null;
    replace(invite, member && current.next_code ? h('p', { class: 'card-panel invite', role: 'status' },
      `The next race of this series is open in room ${current.next_code}. `,
      h('button', { type: 'button', class: 'primary', onclick: raceAgain }, 'Join the next race')) : null);
    if (!over) { // back on the page after the race: the standings went out at race_over; the final counts remain
      replace(results, h('section', { class: 'card-panel standings', 'aria-labelledby': 'standings-title' },
        h('h2', { id: 'standings-title' }, 'The race is over'),
        h('p', {}, 'The final counts of every player are in the race panel.', ownGame ? ' ' : '',
          ownGame ? h('a', { href: viewHref(location, `/replay/${encodeURIComponent(ownGame)}`) }, 'Your replay') : ''),
        member ? raceAgainBlock(current) : null));
      return;
    }
    const rated = session.raceRatings?.code === code
      ? new Map(session.raceRatings.changes.map((change) => [change.player_id, change])) : null;
    const ratingCell = (row) => {
      const change = rated?.get(row.player_id);
      return change ? h('span', { class: `rating-change ${change.delta >= 0 ? 'up' : 'down'}`, dataset: { delta: change.delta } },
        h('span', {}, deltaText(change.delta)), ' ', h('span', {}, `→ ${ratingText(change.after)}`)) : '–'; // on a phone the new rating goes under the change
    };
    const own = over.standings.find((row) => row.player_id === session.playerId);
    const rateable = rated !== null; // the server says which races it rates, with `race_ratings`
    const again = current.variant === 'cell-eleven' ? null
      : h('button', { type: 'button', onclick: () => raceThisDealAgain(current, over.seed), title: 'A room of your own on this deal: on the deal’s leaderboard, never rated (you know the deal)' }, 'Race this deal again');
    replace(results, h('section', { class: 'card-panel standings', 'aria-labelledby': 'standings-title' },
      h('h2', { id: 'standings-title' }, 'Standings'),
      h('p', {}, `${variantName(current.variant)} · ${dealLabel(current.variant, over.seed)}`),
      h('table', { class: 'standings-table' },
        h('thead', {}, h('tr', {}, ['Rank', 'Player', 'Result', rateable ? 'Rating' : null, 'Moves', 'Time', 'Cards home', 'Replay'].filter(Boolean)
          .map((title) => h('th', { scope: 'col', class: title === 'Cards home' ? 'cards-home' : null }, title)))),
        h('tbody', {}, over.standings.map((row) => h('tr', { dataset: { playerId: row.player_id, rank: row.rank }, class: row.player_id === session.playerId ? 'me' : '' },
          h('td', {}, String(row.rank)), h('td', { class: 'player-cell' }, playerLink(location, row.player_id, row.name), ' ',
            reportButton(session, { playerId: row.player_id, name: row.name, gameId: row.game_id })), h('td', {}, progressStatus({ status: row.outcome }, row.rank)),
          rateable ? h('td', { class: 'rating-cell' }, ratingCell(row)) : null,
          h('td', {}, String(row.moves)), h('td', {}, formatDuration(row.time_ms)), h('td', { class: 'cards-home' }, String(row.cards_on_foundations)),
          h('td', {}, h('a', { href: viewHref(location, `/replay/${encodeURIComponent(row.game_id)}`), 'aria-label': `Replay of ${row.name}` }, 'Replay')))))),
      rateable && [...rated.values()].some((change) => change.after.provisional) ? h('p', { class: 'hint' }, PROVISIONAL_NOTE) : null,
      h('p', { class: 'after-race' }, h('a', { href: viewHref(location, `/review/${encodeURIComponent(code)}`) }, 'Review against par'), ' ', again),
      own ? (share ??= shareButton(session, own.game_id, location)) : null, // kept when the ratings arrive: its text stays
      member ? raceAgainBlock(current) : null, member ? playAgainButton(current) : null));
  }

  async function raceThisDealAgain(current, seed) {
    const request = { type: 'create_room', variant: current.variant, options: { ...current.options, ranked: null } };
    if (current.variant === 'freecell') request.deal = seed;
    else request.seed = seed;
    try {
      await session.request({ type: 'leave_room' }).catch(() => null);
      const reply = await session.ask(request);
      navigate(roomHref(location, reply.room.code));
    } catch (error) {
      showNotice(error.message);
    }
  }

  function update() {
    const current = room();
    if (!current) {
      if (joined && session.isOpen) showNotice('You are no longer in this room.', h('a', { href: viewHref(location, '/') }, 'Back to the start'));
      return;
    }
    renderHeader(current);
    if (current.quick && current.status === 'lobby') offerBot();
    renderLobby(current);
    renderGame(current);
    renderRace(current);
    renderResults(current);
  }

  const unsubscribe = session.subscribe((reason) => {
    if (reason === 'connection' && session.isOpen) {
      joined = false; // back after a drop: the resumed state says whether the seat is still ours
      join();
    }
    if (reason === 'move_accepted' && room()) renderRace(room()); // the board redraws itself; the lobby did not change
    else if (reason !== 'pending' && reason !== 'refused') update();
  });
  countdownTimer = setInterval(updateCountdown, 200);
  if (session.isOpen) join();
  update();
  return {
    destroy() {
      unsubscribe();
      clearInterval(countdownTimer);
      clearTimeout(botTimer);
      gameView?.destroy();
    },
  };
}

/** A race-again series: which race this is, and the wins of each player so far (this race's once it is over). */
function seriesPanel(current, playerId) {
  return h('section', { class: 'card-panel series', 'aria-labelledby': 'series-title', dataset: { race: current.series.race } },
    h('h2', { id: 'series-title' }, `Series · race ${current.series.race}`),
    h('ol', { class: 'series-tally', 'aria-label': 'Wins in this series' }, current.series.tally.map((row) => h('li', {
      dataset: { playerId: row.player_id, wins: row.wins }, class: row.player_id === playerId ? 'me' : '',
    }, h('span', { class: 'member-name' }, row.name), ` ${row.wins} ${row.wins === 1 ? 'win' : 'wins'}`))));
}

function deckSize(variant) {
  return { 'chinese-freecell': 78, 'freecell-four-deck': 208, 'freecell-three-deck': 156 }[variant] ?? 52;
}
