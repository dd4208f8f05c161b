/**
 * The account page: the player's name; "Save with a passkey" for an unsaved player; for a saved one its
 * passkeys (rename, remove), sessions (revoke; sign out here or everywhere) and bot accounts (create, another
 * token, revoke: a token is shown once, here, and never again). Every change is the server's answer: the page
 * redraws from the `account` message each request returns.
 */

import { dataTable as plainTable, field, formatTime, h, replace } from '../dom.js';
import { browserLabel, describeBrowserError, passkeysUnavailable, savePasskey, signInWithPasskey, unavailableNote } from '../passkeys.js';
import { lifecycle } from './daily.js';
import { myReportsSection } from '../moderation.js';

/** A table that scrolls sideways on a narrow screen instead of pushing its buttons out of the card. */
function dataTable(...args) {
  return h('div', { class: 'board-table' }, plainTable(...args));
}

export function accountPage(main, { session, location, home, askName }) {
  const unavailable = passkeysUnavailable(location);
  const status = h('p', { class: 'form-error', role: 'alert', hidden: true });
  const shownOnce = h('div', {});
  const body = h('div', {}, h('p', {}, 'Loading…'));
  main.replaceChildren(h('h1', {}, 'Account'), status, shownOnce, body);

  function fail(error) {
    status.hidden = false;
    status.textContent = error?.code ? error.message : describeBrowserError(error);
  }

  /** Runs a request whose answer is the account (or not), redrawing and clearing the last error. */
  async function act(work) {
    status.hidden = true;
    try {
      const reply = await work();
      if (reply?.type === 'account') render(reply);
      return reply;
    } catch (error) {
      fail(error);
      return null;
    }
  }

  async function load() {
    await act(() => session.ask({ type: 'get_account' }));
  }

  function signInButton() {
    return h('button', { type: 'button', disabled: Boolean(unavailable), onclick: () => act(async () => {
      await session.adoptSignIn(await signInWithPasskey(session.url));
      return session.ask({ type: 'get_account' });
    }) }, 'Sign in with a passkey');
  }

  function saveForm(first) {
    const label = h('input', { type: 'text', name: 'passkey-name', maxlength: '64', value: browserLabel() });
    return h('form', { class: 'inline-form', onsubmit: (event) => {
      event.preventDefault();
      act(() => savePasskey(session, label.value));
    } }, field('Passkey name', label),
    h('button', { type: 'submit', class: first ? 'primary' : null, disabled: Boolean(unavailable) },
      first ? 'Save with a passkey' : 'Add a passkey'));
  }

  function render(account) {
    if (!account.saved) {
      replace(body, h('section', { class: 'card-panel' },
        h('p', {}, `You play as `, h('strong', {}, account.name), ', an unsaved player: this browser alone holds you. ',
          'Save with a passkey to keep your games, places on the boards and name on any device, and to claim the name: nobody else can then take it, or a look-alike.'),
        unavailableNote(unavailable), saveForm(true),
        h('p', {}, 'Saved on another device already? ', signInButton()),
        h('p', {}, h('button', { type: 'button', class: 'quiet', onclick: () => askName(account.name) }, 'Play under another name'))));
      return;
    }
    replace(body,
      h('section', { class: 'card-panel' },
        h('p', {}, 'Saved player ', h('strong', { dataset: { claimedName: '' } }, account.name),
          ': the name is yours (claimed).'),
        account.moderator ? h('p', {}, 'You are a moderator: ', h('a', { href: '/mod' }, 'the moderators\u2019 console')) : null,
        unavailableNote(unavailable),
        h('div', { class: 'actions' },
          h('button', { type: 'button', onclick: () => signOut(false) }, 'Sign out here'),
          h('button', { type: 'button', onclick: () => signOut(true) }, 'Sign out everywhere'))),
      h('section', { class: 'card-panel', 'aria-labelledby': 'passkeys-title' },
        h('h2', { id: 'passkeys-title' }, 'Passkeys'),
        dataTable('Passkeys', ['Name', 'Added', 'Last used', ''], account.passkeys.map((passkey) => ({
          attributes: { dataset: { credentialId: passkey.credential_id } },
          cells: [passkey.name, formatTime(passkey.created_at), passkey.last_used_at ? formatTime(passkey.last_used_at) : 'never',
            h('span', { class: 'actions' },
              h('button', { type: 'button', onclick: () => rename(passkey), 'aria-label': `Rename ${passkey.name}` }, 'Rename'),
              h('button', { type: 'button', onclick: () => act(() => session.ask({ type: 'remove_passkey', credential_id: passkey.credential_id })), 'aria-label': `Remove ${passkey.name}` }, 'Remove'))],
        }))),
        saveForm(false)),
      h('section', { class: 'card-panel', 'aria-labelledby': 'sessions-title' },
        h('h2', { id: 'sessions-title' }, 'Sessions'),
        dataTable('Sessions', ['Where', 'Signed in', 'Last seen', ''], account.sessions.map((token) => ({
          attributes: { dataset: { tokenId: token.token_id, current: token.current ? '1' : null } },
          cells: [token.current ? h('span', {}, token.label, ' ', h('strong', {}, '(this browser)')) : token.label,
            formatTime(token.created_at), token.last_used_at ? formatTime(token.last_used_at) : '',
            token.current ? '' : h('button', { type: 'button', onclick: () => act(() => session.ask({ type: 'revoke_token', token_id: token.token_id })), 'aria-label': `Revoke ${token.label}` }, 'Revoke')],
        })))),
      botsSection(account), myReportsSection(session));
  }

  function rename(passkey) {
    const name = window.prompt('A name for this passkey', passkey.name);
    if (name !== null) act(() => session.ask({ type: 'rename_passkey', credential_id: passkey.credential_id, name }));
  }

  function botsSection(account) {
    const name = h('input', { type: 'text', name: 'bot-name', maxlength: '32', required: true });
    const description = h('input', { type: 'text', name: 'bot-description', maxlength: '500' });
    return h('section', { class: 'card-panel', 'aria-labelledby': 'bots-title' },
      h('h2', { id: 'bots-title' }, 'Bots'),
      h('p', {}, 'A bot account is a player of its own, on the bots\u2019 boards because the server says so. Its token goes to the program (',
        h('code', {}, 'freecell-arena-bot --token-file'), ').'),
      account.bots.length ? account.bots.map((bot) => h('div', { class: 'bot', dataset: { botId: bot.player_id } },
        h('h3', {}, bot.name), bot.description ? h('p', {}, bot.description) : null,
        dataTable(`Tokens of ${bot.name}`, ['Token', 'Made', 'Last used', ''], bot.tokens.map((token) => ({
          attributes: { dataset: { tokenId: token.token_id } },
          cells: [`#${token.token_id.slice(0, 8)}`, formatTime(token.created_at), token.last_used_at ? formatTime(token.last_used_at) : 'never',
            token.revoked ? 'revoked' : h('button', { type: 'button', onclick: () => act(() => session.ask({ type: 'revoke_token', token_id: token.token_id })), 'aria-label': `Revoke token of ${bot.name}` }, 'Revoke')],
        }))),
        h('button', { type: 'button', onclick: () => newToken(session.ask({ type: 'new_bot_token', bot_id: bot.player_id })) }, `New token for ${bot.name}`))) : h('p', {}, 'No bot yet.'),
      h('form', { class: 'inline-form', onsubmit: (event) => {
        event.preventDefault();
        newToken(session.ask({ type: 'create_bot', name: name.value, description: description.value }));
      } }, field('Bot name', name), field('Description', description), h('button', { type: 'submit' }, 'Create bot')));
  }

  async function newToken(asked) {
    const made = await act(() => asked);
    if (!made) return;
    replace(shownOnce, h('section', { class: 'card-panel token-once', role: 'status' },
      h('p', {}, `The token of ${made.name}, shown this once (the server keeps only its hash): copy it now.`),
      h('code', { class: 'token', dataset: { botToken: '' } }, made.token)));
    await load();
  }

  async function signOut(everywhere) {
    const done = await act(async () => { await session.signOut(everywhere); return true; });
    if (!done) return;
    replace(body, h('p', {}, everywhere ? 'Signed out everywhere.' : 'Signed out here.', ' ',
      h('a', { href: home }, 'Play again')));
  }

  return lifecycle(session, () => load());
}
