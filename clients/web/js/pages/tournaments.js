/**
 * Tournaments (docs/tournaments.md): the list (`#/tournaments`: upcoming with a countdown, running, finished, and a
 * form for a private one) and a tournament's own page (`#/tournament/ID`, `?link=CODE` for a private one): enter,
 * withdraw, pause, the live table (the top and the rows around you), the podium and full results once over.
 * Your next race opens by itself wherever you are (app.js, on `tournament_race`), with a sound and the browser's
 * notification when allowed.
 */

import { dataTable, formatClock, formatTime, h, notice, replace } from '../dom.js';
import { formatDuration, variantName } from '../notation.js';
import { roomHref, viewHref } from '../router.js';
import { playerLink } from '../compete.js';
import { confirmAction } from '../dialog.js';
import { entrantStatus, pausedWords, timeLeftWords, upcomingSeries } from '../tournament-words.js';
import { lifecycle } from './daily.js';

const REFRESH_MS = 2000;
const KIND_WORDS = { arena: 'Arena', cup: 'Cup' };
const ENTRY_WORDS = { anyone: 'open to all', link: 'with the link', bots: 'bots only' };

/** "in 4 min 05 s", "now" once started: the countdown of an upcoming tournament. */
export function startsIn(iso, now = Date.now()) {
  const left = Math.round((Date.parse(iso) - now) / 1000);
  if (Number.isNaN(left)) return '';
  if (left <= 0) return 'now';
  const hours = Math.floor(left / 3600);
  const minutes = Math.floor((left % 3600) / 60);
  const seconds = String(left % 60).padStart(2, '0');
  return hours ? `in ${hours} h ${minutes} min` : `in ${minutes} min ${seconds} s`;
}

function tournamentHref(location, id) {
  return viewHref(location, `/tournament/${encodeURIComponent(id)}`);
}

function describe(summary) {
  return `${KIND_WORDS[summary.kind] ?? summary.kind} · ${variantName(summary.variant)} · ${summary.ranked ? 'rated' : 'casual'} · ${ENTRY_WORDS[summary.entry] ?? summary.entry}`;
}

/** Refreshes `load` every `REFRESH_MS` and a countdown `tick` every second, while the page is shown. */
function livePage(session, load, tick = () => {}) {
  const page = lifecycle(session, load);
  const timers = [setInterval(() => { if (session.isOpen || session.anonymous) load(); }, REFRESH_MS), setInterval(tick, 1000)];
  const unsubscribe = session.subscribe((reason) => {
    if (reason === 'race_over' || reason === 'tournament_race') load();
  });
  return { destroy: () => { page.destroy(); unsubscribe(); timers.forEach(clearInterval); } };
}

export function tournamentsPage(main, { session, location, navigate, needPlayer }) {
  const sections = Object.fromEntries(['upcoming', 'running', 'finished'].map((phase) => [phase, h('div', { class: 'board-table' }, h('p', {}, 'Loading…'))]));
  const countdowns = [];
  main.replaceChildren(h('h1', {}, 'Tournaments'),
    h('section', { class: 'card-panel', 'aria-labelledby': 'running-title' }, h('h2', { id: 'running-title' }, 'Running'), sections.running),
    h('section', { class: 'card-panel', 'aria-labelledby': 'upcoming-title' }, h('h2', { id: 'upcoming-title' }, 'Upcoming'), sections.upcoming),
    h('section', { class: 'card-panel', 'aria-labelledby': 'finished-title' }, h('h2', { id: 'finished-title' }, 'Finished'), sections.finished),
    createForm(session, location, navigate, needPlayer));

  let everyUpcoming = false; // the repeats of a schedule folded into one row, until asked for every one

  function table(phase, items) {
    if (!items.length) return h('p', {}, phase === 'running' ? 'No tournament is running now.' : phase === 'upcoming' ? 'Nothing is scheduled yet.' : 'None finished yet.');
    const when = phase === 'finished' ? 'Ended' : 'Starts';
    const rows = phase === 'upcoming' && !everyUpcoming ? upcomingSeries(items) : items.map((first) => ({ first, more: 0, everyMs: null }));
    const shown = dataTable(`${phase} tournaments`, ['Tournament', 'Format', when, 'Entrants'], rows.map(({ first: item, more, everyMs }) => {
      let time = formatTime(phase === 'finished' ? item.ends_at : item.starts_at);
      if (phase === 'upcoming') {
        const countdown = h('span', { class: 'tournament-countdown', dataset: { startsAt: item.starts_at } }, startsIn(item.starts_at));
        countdowns.push(countdown);
        time = [time, ' (', countdown, ')', more ? h('span', { class: 'hint' }, ` then ${more} more${everyMs ? `, every ${formatDuration(everyMs)}` : ''}`) : null];
      }
      return {
        attributes: { dataset: { tournamentId: item.tournament_id, phase } },
        cells: [h('a', { href: tournamentHref(location, item.tournament_id) }, item.name), describe(item), time, `${item.entrants} / ${item.cap}`],
      };
    }));
    const folded = rows.length < items.length;
    return folded ? [shown, h('button', { type: 'button', class: 'quiet', onclick: () => { everyUpcoming = true; load(); } }, `Show all ${items.length}`)] : shown;
  }

  async function load() {
    try {
      const reply = await session.read({ type: 'get_tournaments' });
      countdowns.length = 0;
      for (const phase of Object.keys(sections)) replace(sections[phase], table(phase, reply[phase]));
    } catch (error) {
      replace(sections.running, notice(error.message));
    }
  }

  return livePage(session, load, () => countdowns.forEach((item) => { item.textContent = startsIn(item.dataset.startsAt); }));
}

/** A saved player's private tournament for friends: the reply's link enters it. */
function createForm(session, location, navigate, needPlayer) {
  const error = h('p', { class: 'form-error', role: 'alert', hidden: true });
  const number = (name, value, min, max) => h('input', { type: 'number', name, value: String(value), min: String(min), max: String(max), step: '1', inputmode: 'numeric' });
  const form = h('form', {
    class: 'create-tournament',
    onsubmit: async (event) => {
      event.preventDefault();
      const data = new FormData(form);
      error.hidden = true;
      await needPlayer('Pick the name your friends will see in your tournament.');
      try {
        const reply = await session.ask({
          type: 'create_tournament', name: String(data.get('name')).trim(), kind: data.get('kind'),
          starts_in_s: Math.round(Number(data.get('starts_in')) * 60), duration_min: Number(data.get('duration')),
          rounds: Number(data.get('rounds')), race_size: Number(data.get('race_size')),
        });
        navigate(viewHref(location, `/tournament/${encodeURIComponent(reply.tournament.tournament_id)}?link=${encodeURIComponent(reply.link_code ?? '')}`));
      } catch (failure) {
        error.hidden = false;
        replace(error, failure.code === 'not_saved' ? ['A private tournament is a saved player\u2019s. ',
          h('a', { href: viewHref(location, '/account') }, 'Save your player with a passkey'), ', then create it.'] : failure.message);
      }
    },
  },
  h('label', { class: 'field' }, h('span', { class: 'field-label' }, 'Tournament name'), h('input', { name: 'name', required: true, maxlength: '60', value: 'Friends\u2019 arena' })),
  h('label', { class: 'field' }, h('span', { class: 'field-label' }, 'Format'),
    h('select', { name: 'kind' }, h('option', { value: 'arena' }, 'Arena (races for a set time)'), h('option', { value: 'cup' }, 'Cup (the same deals for all)'))),
  h('label', { class: 'field' }, h('span', { class: 'field-label' }, 'Starts in (minutes)'), number('starts_in', 5, 0, 10080)),
  h('label', { class: 'field' }, h('span', { class: 'field-label' }, 'Arena length (minutes)'), number('duration', 30, 5, 180)),
  h('label', { class: 'field' }, h('span', { class: 'field-label' }, 'Cup rounds'), number('rounds', 3, 1, 12)),
  h('label', { class: 'field' }, h('span', { class: 'field-label' }, 'Players per race'), number('race_size', 4, 2, 6)),
  h('button', { type: 'submit', class: 'primary' }, 'Create a private tournament'), error);
  return h('section', { class: 'card-panel', 'aria-labelledby': 'create-title' },
    h('h2', { id: 'create-title' }, 'A tournament for friends'),
    h('p', {}, 'Saved players can open one; friends enter by its link.'), form);
}

export function tournamentPage(main, { session, location, navigate, needPlayer, tournamentId, query }) {
  const title = h('h1', {}, 'Tournament');
  const facts = h('p', { class: 'tournament-facts' });
  const actions = h('div', { class: 'tournament-actions', role: 'group', 'aria-label': 'Your entry' });
  const podium = h('div', { class: 'tournament-podium' });
  const standings = h('div', { class: 'board-table' }, h('p', {}, 'Loading…'));
  const reveal = h('div', { class: 'tournament-reveal' });
  const state = h('p', { class: 'tournament-state', role: 'status' });
  const scoring = h('details', { class: 'tournament-scoring' });
  const page = h('div', { class: 'tournament-page', dataset: { tournamentId } }, title, facts, scoring, state, actions, podium,
    h('section', { class: 'card-panel', 'aria-labelledby': 'standings-title' }, h('h2', { id: 'standings-title' }, 'Standings'), standings),
    reveal, h('p', {}, h('a', { href: viewHref(location, '/tournaments') }, 'All tournaments')));
  main.replaceChildren(page);
  const linkCode = query?.get('link') || null;
  let view = null;
  let lastActions = '';

  async function act(message, done) {
    await needPlayer('Pick the name the other entrants will see.');
    try {
      await session.ask({ ...message, tournament_id: tournamentId });
      session.say(done, 'info');
      await load();
    } catch (error) {
      session.say(error.message, 'error');
      replace(actions, notice(error.message), ...actionButtons());
    }
  }

  /** Withdrawing is for good: asked first (Pause is the way to stop for a while). */
  async function withdraw() {
    if (!await confirmAction({ title: `Withdraw from ${view.tournament.name}?`, confirm: 'Withdraw for good', cancel: 'Stay in',
      text: 'You will never be paired in it again; your points stay in the table. To stop for a while, Pause instead.' })) return;
    await act({ type: 'withdraw_tournament' }, 'You withdrew; your points stay in the table.');
  }

  /** Where you stand between races, in words: waiting to be paired, racing, paused (and why), out. */
  function myState() {
    const { tournament } = view;
    const me = view.me;
    if (view.entered && tournament.phase === 'upcoming') return `You are entered: your first race opens by itself when it starts, ${startsIn(tournament.starts_at)}.`;
    if (!view.entered || !me || tournament.phase !== 'running') return null;
    if (me.status === 'withdrawn') return 'You withdrew: you are not paired any more; your points stay in the table.';
    if (me.status === 'paused') return pausedWords(me.paused_why);
    if (view.current_race) return `You are in a race now: room ${view.current_race}.`;
    if (tournament.kind === 'cup') return 'Waiting for the next round: every entrant is seated at its start.';
    if (Date.parse(tournament.ends_at) <= Date.now()) return 'The arena\u2019s time is up: no new race. The table is final once every race is over.';
    if (session.room && session.room.status === 'lobby') {
      return [`You are waiting in room ${session.room.code}: the arena pairs only entrants outside a lobby. `,
        h('button', { type: 'button', onclick: async () => { await session.ask({ type: 'leave_room' }).catch(() => null); render(); } }, 'Leave that room')];
    }
    return 'Waiting for your next race: you are paired as soon as another entrant is free.';
  }

  function actionButtons() {
    if (!view) return [];
    const phase = view.tournament.phase;
    if (phase === 'finished') return [];
    const me = view.me;
    const buttons = [];
    if (!view.entered) {
      const enter = { type: 'enter_tournament' };
      if (linkCode) enter.link_code = linkCode;
      buttons.push(h('button', { type: 'button', class: 'primary', onclick: () => act(enter, 'You entered the tournament.') }, 'Enter'));
    } else if (me?.status !== 'withdrawn') {
      if (me?.status === 'paused') buttons.push(h('button', { type: 'button', class: 'primary', onclick: () => act({ type: 'pause_tournament', paused: false }, 'You are back: you will be paired.') }, 'Come back'));
      else buttons.push(h('button', { type: 'button', onclick: () => act({ type: 'pause_tournament', paused: true }, 'Paused: you will not be paired until you come back.') }, 'Pause'));
      buttons.push(h('button', { type: 'button', onclick: () => withdraw() }, 'Withdraw'));
      if (typeof Notification !== 'undefined' && Notification.permission === 'default') {
        buttons.push(h('button', { type: 'button', class: 'quiet', onclick: () => Notification.requestPermission().then(() => render()) }, 'Notify me when my race starts'));
      }
    }
    if (view.current_race) buttons.push(h('a', { href: roomHref(location, view.current_race), class: 'button' }, 'Go to your race'));
    return buttons;
  }

  function row(entry) {
    return {
      attributes: { class: entry.player_id === session.playerId ? 'me' : '', dataset: { playerId: entry.player_id, rank: entry.rank, points: entry.points } },
      cells: [String(entry.rank), playerLink(location, entry.player_id, entry.name),
        view.tournament.kind === 'arena' ? `${entry.points}${entry.on_streak ? ' \uD83D\uDD25' : ''}` : String(entry.solved),
        String(entry.races), String(entry.moves), formatDuration(entry.time_ms),
        entrantStatus(entry.status, view.tournament.phase, entry.player_id === session.playerId && Boolean(view.current_race))],
    };
  }

  function render() {
    if (!view) return;
    const { tournament, rules } = view;
    title.textContent = tournament.name;
    page.dataset.phase = tournament.phase;
    const when = tournament.phase === 'upcoming' ? `starts ${formatTime(tournament.starts_at)} (${startsIn(tournament.starts_at)})`
      : tournament.phase === 'running' ? `running until ${formatClock(tournament.ends_at)}, ends ${timeLeftWords(tournament.ends_at)}` : `ended ${formatTime(tournament.ends_at)}`;
    const shape = tournament.kind === 'arena' ? `races of up to ${rules.race_size}, ${formatDuration(rules.time_limit_s * 1000)} each${rules.berserk ? ', berserk offered' : ''}`
      : `${rules.rounds} rounds every ${formatDuration(rules.round_interval_s * 1000)}, heats of ${rules.heat_size}${view.round ? `; round ${view.round} dealt` : ''}`;
    replace(facts, `${describe(tournament)} · ${when} · ${shape} · ${tournament.entrants} / ${tournament.cap} entrants`);
    replace(state, myState());
    if (!scoring.firstChild) scoring.append(...scoringRules(tournament.kind, rules));
    const actionsKey = JSON.stringify([tournament.phase, view.entered, view.me?.status, view.current_race, typeof Notification !== 'undefined' && Notification.permission]);
    if (actionsKey !== lastActions) {
      lastActions = actionsKey;
      replace(actions, ...actionButtons());
    }
    const rows = [...view.standings];
    if (view.me && !rows.some((entry) => entry.player_id === view.me.player_id)) rows.push(view.me);
    const pointsTitle = tournament.kind === 'arena' ? 'Points' : 'Solved';
    replace(standings, rows.length ? dataTable('Standings', ['Rank', 'Player', pointsTitle, 'Races', 'Moves', 'Time', 'Status'], rows.map(row))
      : h('p', {}, 'Nobody has entered yet.'));
    if (tournament.phase === 'finished' && view.standings.length) {
      replace(podium, h('section', { class: 'card-panel podium', 'aria-labelledby': 'podium-title' }, h('h2', { id: 'podium-title' }, 'Podium'),
        h('ol', { 'aria-label': 'Podium' }, view.standings.slice(0, 3).map((entry) => h('li', { dataset: { rank: entry.rank } },
          h('strong', {}, entry.name), ` \u2014 ${tournament.kind === 'arena' ? `${entry.points} points` : `${entry.solved} solved`}`)))));
    } else {
      replace(podium);
    }
    replace(reveal, view.commitment ? h('p', { class: 'hint' }, view.deals ? `Deals revealed: ${view.deals.join(', ')} (commitment ${view.commitment.slice(0, 16)}\u2026)`
      : `The deals are committed (${view.commitment.slice(0, 16)}\u2026) and revealed when the cup is over.`) : null);
  }

  async function load() {
    try {
      view = await session.read({ type: 'get_tournament', tournament_id: tournamentId, around: session.anonymous ? undefined : session.playerId ?? undefined });
      render();
    } catch (error) {
      replace(standings, notice(error.code === 'unknown_tournament' ? 'There is no such tournament.' : error.message));
    }
  }

  return livePage(session, load, () => { if (view?.tournament.phase === 'upcoming') render(); });
}

/** How points are counted (docs/tournaments.md's table), where the tournament is described. */
function scoringRules(kind, rules) {
  if (kind === 'cup') {
    return [h('summary', {}, 'How the cup is ranked'),
      h('p', {}, 'Each round is one deal for everyone. The table ranks by deals solved (more first), then the moves of the solved deals (fewer first), then their time.')];
  }
  return [h('summary', {}, 'How points are counted'),
    h('ul', {},
      h('li', {}, `A race of n players: the first to solve (fewest moves, then least time) earns n points, the next n \u2212 1, and so on; not solving earns none.`),
      h('li', {}, 'On a streak (your two races before were both won): the race\u2019s points count twice.'),
      rules.berserk ? h('li', {}, 'Berserk, chosen in a race\u2019s countdown: half the time; a solve within it earns a point more (not doubled), a solve after it none.') : null,
      h('li', {}, 'You are paired again as soon as your race is over and another entrant is free, until the arena\u2019s time is up.'),
      h('li', {}, 'An entrant who made no move in their last race is paused until they come back; Withdraw is for good, and keeps your points.'))];
}

/** Your next race is formed: a short tone, and the browser's notification when the page is hidden and allowed. */
export function announceRace(message) {
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 880;
    gain.gain.value = 0.08;
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.2);
    tone.onended = () => audio.close();
  } catch {
    // no sound here (a browser without Web Audio): the page still opens the race
  }
  if (typeof Notification !== 'undefined' && Notification.permission === 'granted' && document.hidden) {
    new Notification('Your tournament race is ready', { body: `Race ${message.code} starts ${formatTime(message.starts_at)}.`, tag: message.code });
  }
}
