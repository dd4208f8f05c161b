/**
 * The landing page: create a race (variant, deal, every room option the protocol has), a quick race per
 * variant, join one by code or link, today's daily challenges, the leaderboards.
 */

import { h, replace } from '../dom.js';
import { VARIANTS } from '../notation.js';
import { wholeNumber } from '../connection.js';
import { codeFromInput, roomHref, viewHref } from '../router.js';

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
  const ranked = data.get('ranked');
  if (ranked !== 'auto') options.ranked = ranked === 'yes';
  const minutes = String(data.get('time_limit') ?? '').trim();
  if (minutes) options.time_limit_s = Math.round(Number(minutes) * 60);
  return options;
}

function select(name, choices, chosen) {
  return h('select', { name }, choices.map(([value, text]) => h('option', { value, selected: value === chosen }, text)));
}

export function landingPage(main, { session, navigate, location, badCode }) {
  const error = h('p', { class: 'form-error', role: 'alert', hidden: true });
  const showError = (text) => {
    error.hidden = false;
    error.textContent = text;
  };
  const dealNumber = h('input', { type: 'number', name: 'deal', min: '0', step: '1', inputmode: 'numeric', disabled: true });
  const chooseDeal = h('input', { type: 'radio', name: 'deal_choice', value: 'chosen', onchange: () => { dealNumber.disabled = false; dealNumber.focus(); } });
  const randomDeal = h('input', { type: 'radio', name: 'deal_choice', value: 'random', checked: true, onchange: () => { dealNumber.disabled = true; } });
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
        const reply = await session.ask(request);
        navigate(roomHref(location, reply.room.code));
      } catch (failure) {
        showError(failure.message);
      }
    },
  },
  h('h2', { id: 'create-title' }, 'Create a race'),
  h('fieldset', { class: 'variants' }, h('legend', {}, 'Variant'), variantChoices),
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
      h('label', { class: 'field' }, h('span', { class: 'field-label' }, 'On the leaderboard'), select('ranked', [['auto', 'When the options are standard'], ['yes', 'Yes'], ['no', 'No']], 'auto')))),
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

  const daily = h('section', { class: 'card-panel daily-links', 'aria-labelledby': 'daily-title' },
    h('h2', { id: 'daily-title' }, 'Daily challenge'),
    h('p', {}, 'One deal per variant each UTC day; your first game of it counts on the board.'),
    h('ul', { class: 'link-list' }, VARIANTS.map((variant) => h('li', {},
      h('a', { href: viewHref(location, `/daily/${variant.id}`) }, `Play today\u2019s ${variant.name}`), ' \u00b7 ',
      h('a', { href: viewHref(location, `/leaderboards/${variant.id}?board=daily`) }, 'board')))),
    h('p', {}, h('a', { href: viewHref(location, '/daily') }, 'All daily deals'), ' \u00b7 ',
      h('a', { href: viewHref(location, '/leaderboards/freecell') }, 'Leaderboards'), ' \u00b7 ',
      h('a', { href: viewHref(location, '/tournaments') }, 'Tournaments'), ' \u00b7 ',
      h('a', { href: viewHref(location, '/history') }, 'Your games')));

  const quick = h('section', { class: 'card-panel quick-races', 'aria-labelledby': 'quick-title' },
    h('h2', { id: 'quick-title' }, 'Quick race'),
    h('p', {}, 'Race whoever else is waiting: a ranked race on a new deal that starts by itself.'),
    h('div', { class: 'quick-buttons' }, VARIANTS.map((variant) => h('button', {
      type: 'button', dataset: { quickVariant: variant.id },
      onclick: async () => {
        error.hidden = true;
        try {
          navigate(roomHref(location, await session.quickRace(variant.id)));
        } catch (failure) {
          showError(failure.message);
        }
      },
    }, `Quick race: ${variant.name}`))));

  const resume = h('div', { class: 'resume' });
  const showResume = () => {
    const room = session.room;
    const game = session.game.game;
    if (room && room.status !== 'finished') {
      replace(resume, h('p', { class: 'card-panel' }, `You are in room ${room.code} (${room.status}). `,
        h('a', { href: roomHref(location, room.code) }, 'Back to the room')));
    } else if (game && game.daily && session.game.playing) {
      replace(resume, h('p', { class: 'card-panel' }, 'Your daily game is still running. ',
        h('a', { href: viewHref(location, `/daily/${game.variant}`) }, 'Back to it')));
    } else {
      replace(resume);
    }
  };
  const unsubscribe = session.subscribe(showResume);
  showResume();
  const notice = badCode ? h('p', { class: 'form-error', role: 'alert' }, `\u201c${badCode}\u201d is not a room code.`) : null;
  main.replaceChildren(h('div', { class: 'landing' },
    h('h1', { class: 'visually-hidden' }, 'FreeCell Arena'), notice, resume, error,
    h('div', { class: 'landing-grid' }, createForm, h('div', { class: 'landing-side' }, quick, joinForm, daily))));
  return { destroy: unsubscribe };
}
