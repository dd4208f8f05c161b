/**
 * Passkeys in the browser: the WebAuthn API (`navigator.credentials.create`/`get`) between the server's
 * options and the server's check. The server sends options as JSON (binary fields base64url) and takes the
 * credential back the same way (`PublicKeyCredential.toJSON()`); where the browser lacks the JSON helpers
 * they are done here. Signing in needs no player yet: it runs on a short socket of its own, before any hello,
 * and hands back a session token the page then says hello with.
 */

import { RequestError, encodeMessage, parseMessage } from './connection.js';
import { h } from './dom.js';

const CEREMONY_TIMEOUT_MS = 200000; // the server's challenge lives 5 minutes; the browser is asked for 3

/**
 * Why passkeys cannot work on this page, or null when they can. Browsers refuse an IP address as the
 * relying party ("127.0.0.1"), and need https except on localhost.
 */
export function passkeysUnavailable(location = window.location) {
  const host = location.hostname;
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host) || host.startsWith('[') || host.includes(':')) {
    const port = location.port ? `:${location.port}` : '';
    const here = `${location.protocol}//localhost${port}${location.pathname}${location.search}${location.hash}`;
    return { reason: `Passkeys need a name, not an IP address (${host}): open this page as ${here}`, href: here };
  }
  if (!window.isSecureContext || !window.PublicKeyCredential || !navigator.credentials) {
    return { reason: 'This browser cannot use passkeys here (passkeys need https, or localhost).', href: null };
  }
  return null;
}

/** The note a page shows where passkeys cannot work (null where they can), with a link to where they do. */
export function unavailableNote(unavailable) {
  if (!unavailable) return null;
  return h('p', { class: 'note', dataset: { passkeyNote: '' } }, unavailable.reason,
    unavailable.href ? [' ', h('a', { href: unavailable.href }, 'Go there')] : null);
}

function fromBase64url(text) {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((text.length + 3) % 4);
  return Uint8Array.from(atob(base64), (character) => character.charCodeAt(0)).buffer;
}

function toBase64url(buffer) {
  let binary = '';
  for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function creationOptions(json) {
  if (PublicKeyCredential.parseCreationOptionsFromJSON) return PublicKeyCredential.parseCreationOptionsFromJSON(json);
  return {
    ...json,
    challenge: fromBase64url(json.challenge),
    user: { ...json.user, id: fromBase64url(json.user.id) },
    excludeCredentials: (json.excludeCredentials ?? []).map((item) => ({ ...item, id: fromBase64url(item.id) })),
  };
}

function requestOptions(json) {
  if (PublicKeyCredential.parseRequestOptionsFromJSON) return PublicKeyCredential.parseRequestOptionsFromJSON(json);
  return {
    ...json,
    challenge: fromBase64url(json.challenge),
    allowCredentials: (json.allowCredentials ?? []).map((item) => ({ ...item, id: fromBase64url(item.id) })),
  };
}

function credentialJson(credential) {
  if (typeof credential.toJSON === 'function') return credential.toJSON();
  const response = credential.response;
  const common = { id: credential.id, rawId: toBase64url(credential.rawId), type: credential.type, clientExtensionResults: credential.getClientExtensionResults?.() ?? {}, authenticatorAttachment: credential.authenticatorAttachment ?? undefined };
  if (response.attestationObject) {
    return { ...common, response: { clientDataJSON: toBase64url(response.clientDataJSON), attestationObject: toBase64url(response.attestationObject), transports: response.getTransports?.() ?? [] } };
  }
  return { ...common, response: { clientDataJSON: toBase64url(response.clientDataJSON), authenticatorData: toBase64url(response.authenticatorData), signature: toBase64url(response.signature), userHandle: response.userHandle ? toBase64url(response.userHandle) : undefined } };
}

/** A browser's refusal in words (the person closed the prompt, no passkey here, ...). */
export function describeBrowserError(error) {
  if (error?.name === 'NotAllowedError') return 'The passkey request was cancelled or timed out.';
  if (error?.name === 'InvalidStateError') return 'This device already holds a passkey for this player.';
  if (error?.name === 'SecurityError') return 'The browser refused passkeys on this address.';
  return error?.message ?? String(error);
}

/**
 * Save the session's player with a new passkey named `label`: the server's options, the browser's new
 * credential, the server's check. Resolves with the account message; rejects with a RequestError (the server
 * refused) or the browser's error.
 */
export async function savePasskey(session, label) {
  const begun = await session.ask({ type: 'passkey_begin', ceremony: 'save' });
  const credential = await navigator.credentials.create({ publicKey: creationOptions(begun.options) });
  return session.ask({ type: 'passkey_finish', ceremony: 'save', credential: credentialJson(credential), label });
}

/**
 * Sign in with a passkey on a socket of its own (no hello: the passkey says who): resolves with the
 * `signed_in` message ({player_id, name, token}); rejects with an Error whose `code` is the server's.
 */
export async function signInWithPasskey(url, label = browserLabel()) {
  const socket = await openSocket(url);
  try {
    const begun = await ask(socket, { type: 'passkey_begin', ceremony: 'sign_in' });
    const credential = await navigator.credentials.get({ publicKey: requestOptions(begun.options) });
    return await ask(socket, { type: 'passkey_finish', ceremony: 'sign_in', credential: credentialJson(credential), label });
  } finally {
    socket.close();
  }
}

/** What the account page calls this browser's session ("Chrome on Linux"). */
export function browserLabel() {
  const agent = navigator.userAgent;
  const browser = /Firefox\//.test(agent) ? 'Firefox' : /Edg\//.test(agent) ? 'Edge' : /Chrome\//.test(agent) ? 'Chrome' : /Safari\//.test(agent) ? 'Safari' : 'A browser';
  const system = /Android/.test(agent) ? 'Android' : /iPhone|iPad/.test(agent) ? 'iOS' : /Mac OS X/.test(agent) ? 'macOS' : /Windows/.test(agent) ? 'Windows' : /Linux/.test(agent) ? 'Linux' : '';
  return system ? `${browser} on ${system}` : browser;
}

function openSocket(url) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.addEventListener('open', () => resolve(socket), { once: true });
    socket.addEventListener('error', () => reject(new Error('the server cannot be reached')), { once: true });
  });
}

let nextId = 1;

function ask(socket, message) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { cleanup(); reject(new Error('no answer in time')); }, CEREMONY_TIMEOUT_MS);
    const onMessage = (event) => {
      const reply = parseMessage(event.data);
      if (reply.id !== id) return;
      cleanup();
      if (reply.type === 'error') {
        reject(new RequestError(reply, message.type));
      } else {
        resolve(reply);
      }
    };
    const onClose = () => { cleanup(); reject(new Error('the connection dropped')); };
    function cleanup() {
      clearTimeout(timer);
      socket.removeEventListener('message', onMessage);
      socket.removeEventListener('close', onClose);
    }
    socket.addEventListener('message', onMessage);
    socket.addEventListener('close', onClose);
    socket.send(encodeMessage({ ...message, id }));
  });
}
