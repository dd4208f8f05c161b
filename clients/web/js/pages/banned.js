/**
 * The banned player's screen: one screen in place of every page while a moderator's ban holds, with the reason the
 * moderator gave, the same after a reload (the identity keeps the reason, `connection.js`). It checks once when
 * shown, and again on request: a lifted ban gives an unsaved player back their own player (their token was never
 * revoked), and a saved player signs in with their passkey again (the ban revoked their sessions; the server
 * refuses a sign-in while the ban holds, with the same reason).
 */

import { h, replace } from '../dom.js';
import { describeBrowserError, passkeysUnavailable, signInWithPasskey, unavailableNote } from '../passkeys.js';

export function bannedPage(main, { session, navigate }) {
  const reason = h('strong', { class: 'banned-reason' });
  const status = h('p', { class: 'banned-status', role: 'status' });
  const check = h('button', { type: 'button', onclick: () => checkAgain() }, 'Check again');
  const unavailable = passkeysUnavailable(window.location);
  const signIn = h('button', { type: 'button', disabled: Boolean(unavailable), onclick: () => passkey() }, 'Sign in with a passkey');
  main.replaceChildren(h('section', { class: 'card-panel banned-screen', 'aria-labelledby': 'banned-title' },
    h('h1', { id: 'banned-title' }, 'A moderator banned this player'),
    h('p', {}, 'The reason they gave: ', reason),
    h('p', {}, 'While the ban holds, this player cannot play or sign in on this server. Their past results stay as they were.'),
    h('h2', {}, 'If a moderator lifts the ban'),
    h('ul', { class: 'banned-actions' },
      h('li', {}, check, h('span', {}, 'This browser plays again, as the same player.')),
      h('li', {}, signIn, h('span', {}, 'A player saved with a passkey signs in with it again.'))),
    unavailableNote(unavailable), status));

  const show = () => {
    reason.textContent = session.identity.load()?.banned || session.stateDetail?.error || 'no reason was given';
    if (session.state === 'open') {
      navigate(window.location.pathname + window.location.search + window.location.hash); // the page asked for
    } else if (['connecting', 'reconnecting'].includes(session.state)) {
      status.textContent = 'Checking whether the ban still holds…';
    } else if (session.state === 'banned') {
      status.textContent = session.stateDetail?.revoked
        ? 'The ban holds. It ended this browser\u2019s session: once it is lifted, sign in with your passkey.'
        : 'The ban holds.';
    }
  };

  function checkAgain() {
    status.textContent = 'Checking whether the ban still holds…';
    session.connection.attempt = 0;
    session.start();
  }

  async function passkey() {
    replace(status, 'Waiting for the passkey…');
    try {
      await session.adoptSignIn(await signInWithPasskey(session.url));
    } catch (failure) {
      status.textContent = failure?.code === 'banned'
        ? `Refused: the ban still holds (${failure.message.replace(/^[^:]*banned[^:]*:\s*/, '')}).`
        : failure?.code ? failure.message : describeBrowserError(failure);
    }
  }

  const unsubscribe = session.subscribe((why) => {
    if (why === 'connection') show();
  });
  show();
  checkAgain(); // a ban lifted since the last visit gives the player back at once
  return { destroy: unsubscribe };
}
