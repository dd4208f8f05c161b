/** The first visit: ask for a name (a textbox labelled "Name"); the server says whether it is acceptable. */

import { h } from '../dom.js';

export function namePage(main, { session, done, current = '', home = '/' }) {
  const input = h('input', { type: 'text', name: 'name', maxlength: '32', autocomplete: 'nickname', required: true, value: current });
  const error = h('p', { class: 'form-error', hidden: true });
  const form = h('form', {
    class: 'card-panel name-form',
    onsubmit: async (event) => {
      event.preventDefault();
      const name = input.value.trim();
      if (!name) {
        error.hidden = false;
        error.textContent = 'Type a name of 1 to 32 characters.';
        return;
      }
      error.hidden = true;
      if ((current && name !== current) || session.state === 'refused') session.rename(name);
      await session.start(name);
      done();
    },
  },
  h('h1', {}, current ? 'Play under another name' : 'Welcome to FreeCell Arena'),
  h('p', {}, current
    ? `A new name starts a new player: the games, boards and running game of \u201c${current}\u201d stay with that name, which this browser then forgets.`
    : 'Race friends on the same deal, play the daily challenge, climb the leaderboards. Pick the name other players will see.'),
  current ? h('p', {}, h('a', { href: home }, `Keep playing as ${current}`)) : null,
  h('label', { class: 'field' }, h('span', { class: 'field-label' }, 'Name'), input),
  error,
  h('button', { type: 'submit', class: 'primary' }, 'Continue'));
  if (session.state === 'refused') {
    error.hidden = false;
    error.textContent = `The server did not take that name: ${session.stateDetail?.error ?? ''}`;
  }
  main.replaceChildren(form);
  input.focus();
  return { destroy() {} };
}
