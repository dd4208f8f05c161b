/**
 * The name, asked when it is first needed (a textbox labelled "Name"), saying what for: a friend's link says who
 * invited you to what race; the server says whether the name is acceptable. A player saved on another device
 * signs in with a passkey instead.
 */

import { h } from '../dom.js';
import { variantName } from '../notation.js';
import { describeBrowserError, passkeysUnavailable, signInWithPasskey, unavailableNote } from '../passkeys.js';

export function namePage(main, { session, done, current = '', home = '/', why = null, invite = null, signIn = false }) {
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
      if ((current && name !== current) || session.state === 'refused' || session.state === 'signed_out') session.rename(name);
      await session.start(name);
      done();
    },
  },
  h('h1', {}, current ? 'Play under another name' : invite?.by ? `${invite.by} invited you to a race` : invite ? `Join room ${invite.code}` : 'Welcome to FreeCell Arena'),
  h('p', { class: invite ? 'invite-words' : null }, current
    ? `A new name starts a new player: the games, boards and running game of \u201c${current}\u201d stay with that name, which this browser then forgets.`
    : invite ? `${invite.by ? `${invite.by} is waiting in room ${invite.code}` : `Room ${invite.code} is a race`}${invite.variant ? ` of ${variantName(invite.variant)}` : ''}: everyone gets the same deal, and the standings say who solved it best. Pick the name the others will see to join.`
      : why ?? 'Race friends on the same deal, play the daily challenge, climb the leaderboards. Pick the name other players will see.'),
  current ? h('p', {}, h('a', { href: home }, `Keep playing as ${current}`)) : null,
  h('label', { class: 'field' }, h('span', { class: 'field-label' }, 'Name'), input),
  error,
  h('button', { type: 'submit', class: 'primary' }, 'Continue'));
  if (session.state === 'refused') {
    error.hidden = false;
    error.textContent = `The server did not take that name: ${session.stateDetail?.error ?? ''}`;
  } else if (session.state === 'signed_out') {
    error.hidden = false;
    error.textContent = 'This browser was signed out. Sign in with a passkey, or play as a new player under another name.';
  }
  const passkey = signInPanel(session, done);
  if (signIn) { // "Sign in" in the top bar: a returning player's passkey first, the new name after
    main.replaceChildren(passkey, form);
    passkey.querySelector('button')?.focus();
  } else {
    main.replaceChildren(form, passkey);
    input.focus();
  }
  return { destroy() {} };
}

/** "Sign in with a passkey": the player saved on another device (or in this browser before) comes back. */
function signInPanel(session, done) {
  const unavailable = passkeysUnavailable(window.location);
  const error = h('p', { class: 'form-error', role: 'alert', hidden: true });
  const button = h('button', { type: 'button', disabled: Boolean(unavailable), onclick: async () => {
    error.hidden = true;
    try {
      await session.adoptSignIn(await signInWithPasskey(session.url));
      done();
    } catch (failure) {
      error.hidden = false;
      error.textContent = failure?.code ? failure.message : describeBrowserError(failure);
    }
  } }, 'Sign in with a passkey');
  return h('section', { class: 'card-panel name-form' },
    h('p', {}, 'Saved your player with a passkey? Sign in to be that player here: same name, games and places.'),
    unavailableNote(unavailable),
    button, error);
}
