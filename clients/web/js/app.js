/**
 * The app: one session with the server for the page's life, a router over the views, the connection's
 * state always visible (a "reconnecting" banner when the socket is down), the name asked on the first
 * visit. Each view is its own module, loaded when first shown.
 */

import { Announcer } from './announcer.js';
import { h, replace } from './dom.js';
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
};

const CONNECTION_WORDS = {
  idle: 'Not connected', connecting: 'Connecting…', open: 'Connected', reconnecting: 'Reconnecting…',
  replaced: 'Opened elsewhere', refused: 'Name refused', signed_out: 'Signed out', banned: 'Banned by a moderator',
};

class App {
  constructor() {
    this.main = document.getElementById('main');
    this.status = document.getElementById('connection');
    this.who = document.getElementById('whoami');
    this.session = new Session({ location: window.location, storage: window.localStorage, announcer: new Announcer(document.getElementById('announcer')) });
    this.page = null;
    this.generation = 0;
    this.session.subscribe((reason) => {
      if (reason === 'connection' || reason === 'welcome') this.showConnection();
      if (reason === 'connection' && ['refused', 'signed_out'].includes(this.session.state)) this.askName(); // another name, or a passkey
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
    if (this.session.name && this.session.state !== 'signed_out') this.session.start();
    this.showConnection();
    this.show();
  }

  /** In-app links change the view without reloading the page (the session and its socket stay). */
  followLink(event) {
    const link = event.target.closest?.('a[href]');
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || link.target) return;
    const url = new URL(link.href, window.location.href);
    if (url.origin !== window.location.origin) return;
    event.preventDefault();
    this.navigate(url.pathname + url.search + url.hash);
  }

  /** Your next tournament race is formed: its room opens by itself, with a tone (and a notification if allowed). */
  openTournamentRace(message) {
    import('./pages/tournaments.js').then(({ announceRace }) => announceRace(message));
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
    this.status.dataset.state = state;
    const words = CONNECTION_WORDS[state] ?? state;
    const detail = ['reconnecting', 'refused', 'banned'].includes(state) && stateDetail?.error ? ` (${stateDetail.error})` : '';
    if (state === 'replaced') {
      replace(this.status, words, ' ', h('button', { type: 'button', onclick: () => this.session.reclaim() }, 'Play here'));
    } else {
      replace(this.status, words + detail);
    }
    document.body.classList.toggle('offline', state === 'reconnecting' || state === 'replaced');
    const name = this.session.name;
    replace(this.who, name ? h('button', { type: 'button', class: 'quiet', onclick: () => this.askName(name), 'aria-label': `${name} (switch)`, title: 'Play under another name' }, name) : null);
  }

  /** The name page (a first visit, another name, a refused name or a revoked session). It takes the place of a
   * view still loading (a reload whose hello is then refused must not end on that view's "Loading…"). */
  askName(current = '') {
    const generation = ++this.generation;
    this.page?.destroy();
    this.page = null;
    import('./pages/name.js').then(({ namePage }) => {
      if (generation !== this.generation) return;
      this.page = namePage(this.main, { session: this.session, current, home: viewHref(window.location, '/'), done: () => { this.showConnection(); this.show(); } });
    });
  }

  async show() {
    const generation = ++this.generation;
    const route = parseRoute(window.location);
    if (!this.session.name || this.session.state === 'signed_out') { // a revoked session: a passkey or a new name
      this.askName();
      return;
    }
    const load = PAGES[route.page] ?? PAGES.landing;
    const render = await load();
    if (generation !== this.generation) return;
    this.page?.destroy();
    this.main.replaceChildren();
    this.page = render(this.main, {
      session: this.session, location: window.location, navigate: (href) => this.navigate(href), ...route,
      home: viewHref(window.location, '/'),
    });
    document.querySelectorAll('.top-bar nav a').forEach((link) => {
      const current = new URL(link.href).hash.split('/')[1] ?? '';
      link.toggleAttribute('aria-current', current === route.page || (route.page === 'landing' && current === ''));
    });
  }
}

new App().start();
