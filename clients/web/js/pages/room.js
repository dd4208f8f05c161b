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
import { tournamentRoomPanel } from '../tournament-race.js';
import { raceClocks } from '../tournament-words.js';

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
  const nextRace = h('div', { class: 'room-invite' });
  const play = h('div', { class: 'room-play' }, arena, race);
  const page = h('div', { class: 'room-page', dataset: { roomCode: code } }, header, nextRace, invite, notice, lobby, play, results);
  main.replaceChildren(page);
  let gameView = null;
  let countdownTimer = null;
  let joined = false;
  let lastHeaderKey = '';
  let lastResultsKey = '';
  let share = null;
  const tournamentRace = session.tournamentRaces.of(code); // a tournament's race (null: any other room)
  const kept = { room: null, over: null, ratings: null }; // what the page showed, kept once a tournament seats you elsewhere

  /** The room as the page shows it: the session's while you are in it; after a tournament seated you in its next
   * race, what it last was (its standings stay until you go). */
  const room = () => (session.room?.code === code ? session.room : movedOn() ? kept.room : null);
  const movedOn = () => tournamentRace !== null && kept.room !== null && session.room?.code !== code;
  const raceOver = () => (session.raceOver?.code === code ? session.raceOver : movedOn() ? kept.over : null);
  const raceRatings = () => (session.raceRatings?.code === code ? session.raceRatings : movedOn() ? kept.ratings : null);
  const tournament = tournamentRace ? tournamentRoomPanel(session, location, tournamentRace, () => room()?.status) : null;
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
    if (current.status === 'lobby' && me()?.role === 'player') parts.push(enteredElsewhere());
    if (current.status === 'countdown') parts.push(h('p', { class: 'countdown', dataset: { countdown: '' } }));
    if (tournament) {
      tournament.update();
      parts.push(tournament.element);
    }
    replace(lobby, parts);
    updateCountdown();
  }

  /** A lobby holds you out of a running tournament's pairing (the server seats nobody from a lobby): said here, with
   * the way to the tournament. Asked once, when the lobby is first shown. */
  const running = h('div', { class: 'entered-elsewhere' });
  let runningAsked = false;
  function enteredElsewhere() {
    if (!runningAsked) {
      runningAsked = true;
      session.ask({ type: 'get_tournaments', player_id: session.playerId }).then((reply) => {
        const entered = reply.running[0];
        replace(running, entered ? h('p', { class: 'card-panel note', role: 'status' },
          `You entered ${entered.name}, running now: waiting in this lobby, you are not paired in it. `,
          h('button', { type: 'button', onclick: async () => {
            await session.request({ type: 'leave_room' }).catch(() => null);
            navigate(viewHref(location, `/tournament/${encodeURIComponent(entered.tournament_id)}`));
          } }, 'Leave for the tournament')) : null);
      }, () => null);
    }
    return running;
  }

  /** The clocks beside the game's own while you play a race with a time limit: time left, and berserk's half. */
  function raceClocksNow() {
    const current = room();
    const game = session.game;
    if (!current?.options.time_limit_s || !game.playing || game.game?.room_code !== code) return [];
    return raceClocks(current.options.time_limit_s * 1000, game.elapsedMs(Date.now()), tournament?.berserked() ?? false);
  }

  /** A tournament seated you in its next race while this one's results show: they stay, with the way on; the page
   * goes there by itself when that race starts. Drawn once per next race; its seconds tick in place. */
  let nextShown = null;
  function showNextRace() {
    const next = session.tournamentRace;
    const formed = tournamentRace && next && next.code !== code && next.tournament_id === tournamentRace.tournament_id ? next : null;
    if (formed?.code !== nextShown) {
      nextShown = formed?.code ?? null;
      replace(nextRace, formed ? h('p', { class: 'card-panel next-race', role: 'status' },
        `Your next race is formed: room ${formed.code}, starting `, h('span', { class: 'next-race-starts' }),
        `${formed.berserk_allowed ? ' (berserk is chosen there, before the start)' : ''}. `,
        h('button', { type: 'button', class: 'primary', onclick: () => navigate(roomHref(location, formed.code)) }, 'Go to it now')) : null);
    }
    const starts = nextRace.querySelector('.next-race-starts');
    if (formed && starts) {
      const left = secondsUntil(formed.starts_at, Date.now(), session.clockOffsetMs);
      setText(starts, left > 0 ? `in ${left} s` : 'now');
    }
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
    const over = raceOver();
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
      gameView = new GameView(session, {
        hintsAllowed: () => room()?.options.ranked === false, scrollToStart: game.status === 'playing',
        race: () => ({ room: room(), over: raceOver() }), clocks: raceClocksNow,
      });
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
    const over = raceOver();
    const ownGame = session.game.game?.room_code === code ? session.game.game.game_id : null;
    const gameOver = ownGame !== null && !session.game.playing && me()?.role === 'player';
    const stillRacing = progressTable(current).filter((row) => row.status === 'playing').map((row) => row.player_id);
    const key = JSON.stringify([current.status, current.next_code, me() !== null, over !== null, raceRatings() !== null, ownGame, gameOver, stillRacing]);
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
        member && !tournamentRace ? raceAgainBlock(current) : null));
      return;
    }
    const rated = raceRatings() ? new Map(raceRatings().changes.map((change) => [change.player_id, change])) : null;
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
      member && !tournamentRace ? raceAgainBlock(current) : null, member ? playAgainButton(current) : null)); // a tournament pairs its own races
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
    if (session.room?.code === code) { // kept for when a tournament seats you in its next race (a room races once:
      kept.room = session.room; // its standings, once come, stay, whatever the next race's countdown clears)
      kept.over = raceOver() ?? kept.over;
      kept.ratings = raceRatings() ?? kept.ratings;
    }
    showNextRace();
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
    if (reason === 'race_started' && movedOn() && session.game.game?.room_code === session.tournamentRace?.code) {
      navigate(roomHref(location, session.tournamentRace.code)); // the next race began: its board is there
      return;
    }
    if (reason === 'move_accepted' && room()) renderRace(room()); // the board redraws itself; the lobby did not change
    else if (reason !== 'pending' && reason !== 'refused') update();
  });
  countdownTimer = setInterval(() => {
    updateCountdown();
    if (nextShown) showNextRace(); // its seconds
  }, 200);
  if (session.isOpen) join();
  update();
  return {
    destroy() {
      unsubscribe();
      clearInterval(countdownTimer);
      clearTimeout(botTimer);
      tournament?.destroy();
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

function setText(element, text) {
  if (element.textContent !== text) element.textContent = text;
}

function deckSize(variant) {
  return { 'chinese-freecell': 78, 'freecell-four-deck': 208, 'freecell-three-deck': 156 }[variant] ?? 52;
}
