/**
 * The app: one session with the server for the page's life, a router over the views, the connection's
 * state always visible once the player plays (a "reconnecting" banner when the socket is down). A first visit
 * sees the game before any form: the landing page and the rules need no name; the name is asked when it is first
 * needed (playing, or a page that reads the server for you), with what it is for: an invitation by link says
 * who invited you to what. Each view is its own module, loaded when first shown.
 */

import { Announcer } from './announcer.js';
import { stopCascades } from './celebrate.js';
import { h, replace } from './dom.js';
import { confirmAction } from './dialog.js';
import { parseRoute, roomHref, viewHref } from './router.js';
import { Session } from './session.js';
import { settings } from './settings.js';

const PAGES = {
  landing: () => import('./pages/landing.js').then((module) => module.landingPage),
  room: () => import('./pages/room.js').then((module) => module.roomPage),
  daily: () => import('./pages/daily.js').then((module) => module.dailyPage),
  leaderboards: () => import('./pages/leaderboards.js').then((module) => module.leaderboardsPage),
  replay: () => import('./pages/replay.js').then((module) => module.replayPage),
  history: () => import('./pages/history.js').then((module) => module.historyPage),
  account: () => import('./pages/account.js').then((module) => module.accountPage),
  player: () => import('./pages/player.js').then((module) => module.playerPage),
  review: () => import('./pages/review.js').then((module) => module.reviewPage),
  tournaments: () => import('./pages/tournaments.js').then((module) => module.tournamentsPage),
  tournament: () => import('./pages/tournaments.js').then((module) => module.tournamentPage),
  mod: () => import('./pages/mod.js').then((module) => module.modPage),
  banned: () => import('./pages/banned.js').then((module) => module.bannedPage),
  rules: () => import('./pages/rules.js').then((module) => module.rulesPage),
};
/** Pages a first visit sees before giving a name: they read only public things, over plain HTTP (`session.read`);
 * the daily challenge's list is one of them, playing a daily is not. */
function openToAll(route) {
  return ['landing', 'rules', 'leaderboards', 'tournaments', 'tournament'].includes(route.page) || (route.page === 'daily' && !route.variant);
}

const CONNECTION_WORDS = {
  idle: 'Not connected', connecting: 'Connecting…', open: 'Connected', reconnecting: 'Reconnecting…',
  replaced: 'Opened elsewhere', refused: 'Name refused', signed_out: 'Signed out', banned: 'Banned by a moderator',
};

class App {
  constructor() {
    this.main = document.getElementById('main');
    this.status = document.getElementById('connection');
    this.who = document.getElementById('whoami');
    this.announcer = new Announcer(document.getElementById('announcer'));
    this.session = new Session({ location: window.location, storage: window.localStorage, announcer: this.announcer });
    this.page = null;
    this.generation = 0;
    this.shownKey = null;
    this.waitingForName = [];
    this.resume = h('div', { class: 'resume' });
    this.main.before(this.resume);
    this.resumeKey = '';
    this.session.subscribe((reason) => {
      if (reason !== 'pending' && reason !== 'move_accepted') this.showResume();
      if (reason === 'connection' || reason === 'welcome') this.showConnection();
      if (reason === 'connection' && ['refused', 'signed_out'].includes(this.session.state)) this.askName(); // another name, or a passkey
      if (reason === 'connection' && this.session.state === 'banned' && this.shownKey !== 'banned|') this.show(); // one screen, every route
      if (reason === 'tournament_race') this.openTournamentRace(this.session.tournamentRace);
      if (reason === 'name_replaced') this.askNewName();
    });
    window.addEventListener('popstate', () => this.show());
    window.addEventListener('hashchange', () => this.show());
    document.addEventListener('click', (event) => this.followLink(event));
  }

  start() {
    settings.apply();
    for (const link of document.querySelectorAll('.top-bar a[href]')) {
      link.href = viewHref(window.location, new URL(link.href).hash.slice(1) || '/'); // keep ?server= in development
    }
    if (this.session.name && !['signed_out', 'banned'].includes(this.session.state)) this.session.start(); // banned: its page checks
    this.showConnection();
    this.show();
  }

  /** In-app links change the view without reloading the page (the session and its socket stay). Leaving the board
   * of your race while it runs asks first: the race and its clock go on without you. */
  async followLink(event) {
    const link = event.target.closest?.('a[href]');
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || link.target) return;
    const url = new URL(link.href, window.location.href);
    if (url.origin !== window.location.origin) return;
    event.preventDefault();
    const href = url.pathname + url.search + url.hash;
    const racing = this.racingHere();
    if (racing && parseRoute(url).code !== racing && !await confirmAction({
      title: 'Leave your race\u2019s board?', confirm: 'Leave the board', cancel: 'Stay in the race',
      text: `Your race in room ${racing} goes on, its clock running: the page offers the way back at the top.`,
    })) return;
    this.navigate(href);
  }

  /** The room code of the race whose board this page shows while your game in it runs; null otherwise. */
  racingHere() {
    const game = this.session.game;
    const route = parseRoute(window.location);
    return game.playing && game.game?.room_code && route.page === 'room' && route.code === game.game.room_code ? route.code : null;
  }

  /** Away from your race (or your daily game) while it goes on: the way back, above every page. */
  showResume() {
    const route = parseRoute(window.location);
    const room = this.session.room;
    const game = this.session.game;
    let back = null;
    const shownRace = route.page === 'room' ? this.session.tournamentRaces.of(route.code) : null;
    const saidThere = shownRace && room && this.session.tournamentRaces.of(room.code)?.tournament_id === shownRace.tournament_id; // its next race's notice
    if (room && room.status !== 'finished' && !(route.page === 'room' && route.code === room.code) && !saidThere) {
      back = [room.status === 'lobby' ? `You are waiting in room ${room.code}. ` : `Your race in room ${room.code} is on. `,
        h('a', { href: roomHref(window.location, room.code) }, room.status === 'lobby' ? 'Back to the room' : 'Back to your race')];
    } else if (game.playing && game.game?.daily && !(route.page === 'daily' && route.variant === game.game.variant)) {
      back = ['Your daily game is still running. ', h('a', { href: viewHref(window.location, `/daily/${game.game.variant}`) }, 'Back to it')];
    }
    const key = back ? `${room?.code} ${room?.status} ${route.page} ${route.code ?? route.variant}` : '';
    if (key === this.resumeKey) return;
    this.resumeKey = key;
    replace(this.resume, back ? h('p', { class: 'card-panel resume-banner', role: 'status' }, ...back) : null);
  }

  /** Your next tournament race is formed: its room opens by itself, with a tone (and a notification if allowed).
   * From the room of the same tournament's race just over, not at once: its result and points stay in view, with
   * the way on, until the next race starts (the room page goes then). */
  openTournamentRace(message) {
    import('./pages/tournaments.js').then(({ announceRace }) => announceRace(message));
    const here = parseRoute(window.location);
    const last = here.page === 'room' ? this.session.tournamentRaces.of(here.code) : null;
    if (last && last.code !== message.code && last.tournament_id === message.tournament_id) return;
    this.navigate(roomHref(window.location, message.code));
  }

  navigate(href) {
    if (href !== window.location.pathname + window.location.search + window.location.hash) history.pushState(null, '', href);
    this.show();
  }

  /** A moderator replaced our name: a banner above the page asks for another. */
  askNewName() {
    import('./moderation.js').then(({ nameChooser }) => {
      const banner = nameChooser(this.session, this.session.nameReplaced, () => { banner.remove(); this.showConnection(); });
      this.main.before(banner);
    });
  }

  showConnection() {
    const { state, stateDetail } = this.session;
    const named = Boolean(this.session.name);
    this.status.dataset.state = state;
    this.status.hidden = !named && state === 'idle'; // a first visit is not "not connected": it has not played yet
    const words = CONNECTION_WORDS[state] ?? state;
    const detail = ['reconnecting', 'refused', 'banned'].includes(state) && stateDetail?.error ? ` (${stateDetail.error})` : '';
    if (state === 'replaced') {
      replace(this.status, words, ' ', h('button', { type: 'button', onclick: () => this.session.reclaim() }, 'Play here'));
    } else {
      replace(this.status, words + detail);
    }
    document.body.classList.toggle('offline', state === 'reconnecting' || state === 'replaced');
    const name = this.session.name;
    replace(this.who, name && state !== 'signed_out'
      ? h('a', { href: viewHref(window.location, '/player'), class: 'who-link', 'aria-label': `Your page: ${name}`, title: 'Your games, ratings and daily calendar' }, name)
      : [h('button', { type: 'button', class: 'quiet', onclick: () => this.askName() }, 'Choose a name'),
        h('button', { type: 'button', class: 'quiet', onclick: () => this.askName('', null, { signIn: true }), title: 'A player saved with a passkey, on another device or here before' }, 'Sign in')]);
  }

  /**
   * A player is needed (to play, or to read something of yours): resolves once connected, asking the name first on
   * a first visit (`why` says what for). Pages get it as `needPlayer`.
   */
  needPlayer(why = 'Pick the name other players will see, and play.') {
    if (this.session.name && this.session.state !== 'signed_out') return this.session.start();
    return new Promise((resolve) => {
      this.waitingForName.push(resolve);
      this.askName('', why);
    });
  }

  /** The name page (a first visit, another name, a refused name or a revoked session; `signIn`: a returning
   * player's passkey first). It takes the place of a view still loading (a reload whose hello is then refused must
   * not end on that view's "Loading…"). */
  askName(current = '', why = null, { signIn = false } = {}) {
    const generation = ++this.generation;
    this.page?.destroy();
    this.page = null;
    this.shownKey = null;
    const route = parseRoute(window.location);
    import('./pages/name.js').then(({ namePage }) => {
      if (generation !== this.generation) return;
      this.page = namePage(this.main, {
        session: this.session, current, why, signIn, invite: route.page === 'room' ? { code: route.code, ...route.invite } : null,
        home: viewHref(window.location, '/'),
        done: () => {
          this.showConnection();
          this.show();
          for (const resolve of this.waitingForName.splice(0)) resolve();
        },
      });
    });
  }

  async show() {
    const generation = ++this.generation;
    const route = this.session.state === 'banned' ? { page: 'banned' } : parseRoute(window.location);
    this.showResume();
    const named = this.session.name && this.session.state !== 'signed_out';
    if (!named && !openToAll(route)) { // a revoked session: a passkey or a new name
      this.askName('', route.page === 'room' ? null : 'This page shows your games: pick the name other players will see, or sign in.');
      return;
    }
    const load = PAGES[route.page] ?? PAGES.landing;
    const render = await load();
    if (generation !== this.generation) return;
    this.page?.destroy();
    stopCascades();
    this.main.replaceChildren();
    const key = `${route.page}|${route.code ?? ''}`;
    if (this.shownKey !== null && key !== this.shownKey) this.announcer.clear(); // a room's events stay with it
    this.shownKey = key;
    this.page = render(this.main, {
      session: this.session, location: window.location, navigate: (href) => this.navigate(href), ...route,
      home: viewHref(window.location, '/'), needPlayer: (why) => this.needPlayer(why), askName: (current) => this.askName(current),
    });
    document.querySelectorAll('.top-bar nav a').forEach((link) => {
      const current = new URL(link.href).hash.split('/')[1] ?? '';
      link.toggleAttribute('aria-current', current === route.page || (route.page === 'landing' && current === ''));
    });
  }
}

new App().start();
