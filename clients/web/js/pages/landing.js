/**
 * The landing page, what a first visit sees (no name asked until it is needed): "Play now" (FreeCell's quick race
 * with whoever waits, or the house bot at once when nobody does), the quick races filling now, today's dailies and
 * each variant's rules; then create a race (variant, deal, every room option the protocol has) or join one by code
 * or link. What it shows is read over plain HTTP (`/api/quick-races`, `/api/daily/...`), so it needs no socket.
 */

import { h, replace } from '../dom.js';
import { VARIANTS, counted } from '../notation.js';
import { wholeNumber } from '../connection.js';
import { apiGet } from '../http-api.js';
import { codeFromInput, roomHref, viewHref } from '../router.js';

const REFRESH_MS = 5000; // the quick races filling now, while the page is open

function optionsFrom(form) {
  const data = new FormData(form);
  const options = {
    autoplay: data.get('autoplay') === 'on',
    max_players: Number(data.get('max_players')),
    ranking: data.get('ranking'),
    countdown_s: Number(data.get('countdown_s')),
  };
  const undo = data.get('undo');
  if (undo !== 'default') options.undo_allowed = undo === 'on';
  const ranked = data.get('kind') === 'practice' ? 'no' : data.get('ranked'); // practice: hints on, off the boards
  if (ranked !== 'auto') options.ranked = ranked === 'yes';
  const minutes = String(data.get('time_limit') ?? '').trim();
  if (minutes) options.time_limit_s = Math.round(Number(minutes) * 60);
  return options;
}

function select(name, choices, chosen) {
  return h('select', { name }, choices.map(([value, text]) => h('option', { value, selected: value === chosen }, text)));
}

export function landingPage(main, { session, navigate, location, badCode, needPlayer }) {
  const error = h('p', { class: 'form-error', role: 'alert', hidden: true });
  const showError = (text) => {
    error.hidden = false;
    error.textContent = text;
  };
  const dealNumber = h('input', { type: 'number', name: 'deal', min: '0', step: '1', inputmode: 'numeric', disabled: true });
  const chooseDeal = h('input', { type: 'radio', name: 'deal_choice', value: 'chosen', onchange: () => { dealNumber.disabled = false; dealNumber.focus(); } });
  const randomDeal = h('input', { type: 'radio', name: 'deal_choice', value: 'random', checked: true, onchange: () => { dealNumber.disabled = true; } });
  const leaderboard = select('ranked', [['auto', 'When the options are standard'], ['yes', 'Yes'], ['no', 'No']], 'auto');
  const variantChoices = VARIANTS.map((variant, index) => h('label', { class: 'variant-choice' },
    h('input', {
      type: 'radio', name: 'variant', value: variant.id, checked: index === 0, 'aria-label': variant.name,
      'aria-describedby': `blurb-${variant.id}`,
      onchange: () => { chooseDeal.disabled = variant.id === 'cell-eleven'; if (chooseDeal.disabled) { randomDeal.checked = true; dealNumber.disabled = true; } },
    }),
    h('span', { class: 'variant-name' }, variant.name), h('small', { id: `blurb-${variant.id}` }, variant.blurb)));

  const createForm = h('form', {
    class: 'card-panel create-form', 'aria-labelledby': 'create-title',
    onsubmit: async (event) => {
      event.preventDefault();
      error.hidden = true;
      const data = new FormData(createForm);
      const variant = data.get('variant');
      await needPlayer('Pick the name the others in your race will see.');
      const request = { type: 'create_room', variant, options: optionsFrom(createForm) };
      if (data.get('deal_choice') === 'chosen') {
        const number = wholeNumber(dealNumber.value);
        if (number === null) {
          showError('Type a whole deal number, or choose a random deal.');
          return;
        }
        if (variant === 'freecell') request.deal = number;
        else request.seed = number;
      }
      try {
        if (!await leftIdleRoom()) return;
        const reply = await session.ask(request);
        navigate(roomHref(location, reply.room.code));
      } catch (failure) {
        showError(failure.message);
      }
    },
  },
  h('h2', { id: 'create-title' }, 'Create a race'),
  h('fieldset', { class: 'variants' }, h('legend', {}, 'Variant'), variantChoices),
  h('fieldset', { class: 'race-kind' }, h('legend', {}, 'Kind'),
    h('label', { class: 'check' }, h('input', { type: 'radio', name: 'kind', value: 'race', checked: true, onchange: () => { leaderboard.disabled = false; } }), 'A race (ranked when the options are standard)'),
    h('label', { class: 'check' }, h('input', { type: 'radio', name: 'kind', value: 'practice', 'aria-describedby': 'practice-blurb', onchange: () => { leaderboard.disabled = true; } }), 'Practice (hints on)'),
    h('small', { class: 'hint', id: 'practice-blurb' }, 'Practice: Hint and Finish help you; the game is on no leaderboard and rates nobody.')),
  h('fieldset', {}, h('legend', {}, 'Deal'),
    h('label', { class: 'check' }, randomDeal, 'Random deal'),
    h('label', { class: 'check' }, chooseDeal, 'Choose the deal'),
    h('label', { class: 'field inline' }, h('span', { class: 'field-label' }, 'Deal number'), dealNumber)),
  h('details', { class: 'room-options' }, h('summary', {}, 'Room options'),
    h('div', { class: 'options-grid' },
      h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'autoplay', checked: true }), 'Autoplay safe cards to the foundations'),
      h('label', { class: 'field' }, h('span', { class: 'field-label' }, 'Undo'), select('undo', [['default', 'The variant\u2019s rule'], ['on', 'Allowed'], ['off', 'Not allowed']], 'default')),
      h('label', { class: 'field' }, h('span', { class: 'field-label' }, 'Players at most'), h('input', { type: 'number', name: 'max_players', min: '1', max: '64', value: '16' })),
      h('label', { class: 'field' }, h('span', { class: 'field-label' }, 'Time limit (minutes, empty for none)'), h('input', { type: 'number', name: 'time_limit', min: '1', max: '1440', step: 'any' })),
      h('label', { class: 'field' }, h('span', { class: 'field-label' }, 'Winners ranked by'), select('ranking', [['moves', 'Fewest moves, then time'], ['speed', 'Fastest time, then moves']], 'moves')),
      h('label', { class: 'field' }, h('span', { class: 'field-label' }, 'Countdown (seconds)'), h('input', { type: 'number', name: 'countdown_s', min: '0', max: '30', step: 'any', value: '3' })),
      h('label', { class: 'field' }, h('span', { class: 'field-label' }, 'On the leaderboard'), leaderboard))),
  h('button', { type: 'submit', class: 'primary' }, 'Create race'));

  const codeInput = h('input', { type: 'text', name: 'code', autocomplete: 'off', autocapitalize: 'characters', spellcheck: 'false', placeholder: 'ABCD2345 or a link' });
  const watch = h('input', { type: 'checkbox', name: 'watch' });
  const joinForm = h('form', {
    class: 'card-panel join-form', 'aria-labelledby': 'join-title',
    onsubmit: (event) => {
      event.preventDefault();
      const code = codeFromInput(codeInput.value);
      if (!code) {
        showError('A room code is letters and digits, like ABCD2345 (or paste the room\u2019s link).');
        return;
      }
      const href = roomHref(location, code);
      navigate(watch.checked ? `${href}${href.includes('?') ? '&' : '?'}watch=1` : href);
    },
  },
  h('h2', { id: 'join-title' }, 'Join a race'),
  h('label', { class: 'field' }, h('span', { class: 'field-label' }, 'Room code'), codeInput),
  h('label', { class: 'check' }, watch, 'Watch as a spectator'),
  h('button', { type: 'submit', class: 'primary' }, 'Join'));

  const dailyRows = new Map(VARIANTS.map((variant) => [variant.id, h('span', { class: 'daily-par' })]));
  const daily = h('section', { class: 'card-panel daily-links', 'aria-labelledby': 'daily-title' },
    h('h2', { id: 'daily-title' }, 'Today\u2019s daily challenge'),
    h('p', {}, 'One deal per variant each UTC day, the same for everyone; your first game of it counts on the day\u2019s board.'),
    h('ul', { class: 'link-list' }, VARIANTS.map((variant) => h('li', { dataset: { variant: variant.id } },
      h('a', { href: viewHref(location, `/daily/${variant.id}`) }, `Play today\u2019s ${variant.name}`), dailyRows.get(variant.id), ' \u00b7 ',
      h('a', { href: viewHref(location, `/leaderboards/${variant.id}?board=daily`) }, 'board')))),
    h('p', {}, h('a', { href: viewHref(location, '/daily') }, 'All daily deals'), ' \u00b7 ',
      h('a', { href: viewHref(location, '/leaderboards/freecell') }, 'Leaderboards'), ' \u00b7 ',
      h('a', { href: viewHref(location, '/tournaments') }, 'Tournaments'), ' \u00b7 ',
      h('a', { href: viewHref(location, '/history') }, 'Your games')));

  /**
   * A new race starts from no room: a lobby you wait in (or a race your game in is over) is left by itself, as you
   * asked for another; a game still running is not given up behind your back: the page says where it is instead.
   * Resolves to whether you are free now.
   */
  async function leftIdleRoom() {
    const room = session.room;
    if (!room || room.status === 'finished') return true;
    const playing = session.game.playing && session.game.game?.room_code === room.code;
    if (playing) {
      error.hidden = false;
      replace(error, `Your race in room ${room.code} is still running. `, h('a', { href: roomHref(location, room.code) }, 'Back to your race'));
      return false;
    }
    await session.ask({ type: 'leave_room' }).catch(() => null);
    return true;
  }

  async function quickRace(variant, { botIfAlone = false } = {}) {
    error.hidden = true;
    try {
      await needPlayer('Pick the name the others in the race will see.');
      if (!await leftIdleRoom()) return;
      navigate(roomHref(location, await (botIfAlone ? session.playNow(variant) : session.quickRace(variant))));
    } catch (failure) {
      showError(failure.message);
    }
  }

  const waitingRows = new Map(VARIANTS.map((variant) => [variant.id, h('span', { class: 'waiting', dataset: { waiting: '' } }, '\u2026')]));
  const quick = h('section', { class: 'card-panel quick-races', 'aria-labelledby': 'quick-title' },
    h('h2', { id: 'quick-title' }, 'Quick races filling now'),
    h('p', {}, 'Race whoever else is waiting: a ranked race on a new deal that starts by itself. Alone for a while? The house bot will race you.'),
    h('ul', { class: 'quick-list' }, VARIANTS.map((variant) => h('li', { dataset: { variant: variant.id } },
      h('button', { type: 'button', dataset: { quickVariant: variant.id }, onclick: () => quickRace(variant.id) }, `Quick race: ${variant.name}`),
      ' ', waitingRows.get(variant.id), ' ',
      h('a', { href: viewHref(location, `/rules/${variant.id}`), 'aria-label': `Rules of ${variant.name}` }, 'Rules')))));

  const hero = h('section', { class: 'hero', 'aria-labelledby': 'hero-title' },
    h('h1', { id: 'hero-title' }, 'FreeCell Arena'),
    h('p', {}, 'Race other players on the same FreeCell deal, live: the same cards for everyone, and the standings say who solved it in the fewest moves.'),
    h('div', { class: 'hero-actions' },
      h('button', { type: 'button', class: 'primary big', dataset: { playNow: '' }, onclick: () => quickRace('freecell', { botIfAlone: true }) }, 'Play now'),
      h('span', {}, 'A FreeCell race with whoever is waiting, or the house bot at once if nobody is. ',
        h('a', { href: viewHref(location, '/rules/freecell') }, 'How to play'))));

  async function refresh() {
    try {
      const reply = await apiGet(location, '/api/quick-races');
      for (const race of reply.races) {
        const row = waitingRows.get(race.variant);
        if (!row) continue;
        row.dataset.waiting = String(race.players);
        row.textContent = race.players ? `${counted(race.players, 'player')} waiting${race.starts_at ? ', starting soon' : ''}` : 'nobody waiting yet';
      }
    } catch {
      // the buttons work without the counts
    }
  }

  async function loadDailies() {
    await Promise.all(VARIANTS.map(async (variant) => {
      const reply = await apiGet(location, `/api/daily/${variant.id}`).catch(() => null);
      const today = reply?.deals.find((deal) => deal.status === 'open');
      replace(dailyRows.get(variant.id), today ? ` (par ${today.par ?? '?'} moves)` : '');
    }));
  }

  const notice = badCode ? h('p', { class: 'form-error', role: 'alert' }, `\u201c${badCode}\u201d is not a room code.`) : null;
  main.replaceChildren(h('div', { class: 'landing' },
    notice, error, hero,
    h('div', { class: 'landing-now' }, quick, daily),
    h('div', { class: 'landing-grid' }, createForm, h('div', { class: 'landing-side' }, joinForm))));
  refresh();
  loadDailies();
  const timer = setInterval(refresh, REFRESH_MS);
  return { destroy() { clearInterval(timer); } };
}
