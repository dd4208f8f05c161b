/**
 * A won game's celebration and the optional feedback of play: the cards cascading off the foundations (as the
 * old desktop FreeCell did), a short sound per move and a chime on a win, a buzz on a phone. All of it is off
 * while the system asks for reduced motion (animation, sound and vibration alike), and sounds and vibration are
 * off until the player turns them on (settings.js).
 */

import { settings } from './settings.js';

const CASCADE_MS = 2600;
const CARDS_PER_FOUNDATION = 3;

export function reducedMotion() {
  return matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** The cascades still falling, whichever view started them: a new page stops them all (`stopCascades`). */
const falling = new Set();

/** The cards on the foundations of `board` fall and bounce across the window, then go. Nothing for a board no
 * longer on the page (a view that outlived its page must not rain cards over the next one). */
export function cascade(board) {
  if (!board || !board.isConnected || reducedMotion()) return null;
  const layer = document.createElement('div');
  layer.className = 'celebration';
  layer.setAttribute('aria-hidden', 'true');
  const tops = [...board.querySelectorAll('.pile.foundation .card')];
  const bottom = window.innerHeight;
  tops.forEach((card, index) => {
    const start = card.getBoundingClientRect();
    for (let copy = 0; copy < CARDS_PER_FOUNDATION; copy += 1) {
      const flying = card.cloneNode(true);
      flying.removeAttribute('role');
      flying.removeAttribute('aria-label');
      flying.removeAttribute('data-card');
      Object.assign(flying.style, { position: 'fixed', left: `${start.left}px`, top: `${start.top}px`, width: `${start.width}px`, height: `${start.height}px` });
      layer.append(flying);
      const side = (index + copy) % 2 ? 1 : -1;
      const drift = side * (120 + ((index * 97 + copy * 53) % 260));
      const fall = bottom - start.bottom;
      flying.animate([
        { transform: 'translate(0, 0)' },
        { transform: `translate(${drift * 0.35}px, ${fall}px)`, offset: 0.45 },
        { transform: `translate(${drift * 0.6}px, ${fall * 0.55}px)`, offset: 0.62 },
        { transform: `translate(${drift * 0.8}px, ${fall}px)`, offset: 0.8 },
        { transform: `translate(${drift}px, ${fall * 0.8}px)`, opacity: 0 },
      ], { duration: CASCADE_MS, delay: (index * CARDS_PER_FOUNDATION + copy) * 70, easing: 'ease-in', fill: 'both' });
    }
  });
  document.body.append(layer);
  falling.add(layer);
  setTimeout(() => {
    layer.remove();
    falling.delete(layer);
  }, CASCADE_MS + tops.length * CARDS_PER_FOUNDATION * 70 + 100);
  return layer;
}

/** A new page: the win's cards fall over their own board only, never over the page a player goes to next. */
export function stopCascades() {
  for (const layer of falling) layer.remove();
  falling.clear();
}

let audio = null;

/** A short tone: `kind` "move", "refused" or "won". Nothing unless sounds are on and motion is not reduced. */
export function sound(kind) {
  if (!settings.sounds || reducedMotion() || typeof AudioContext !== 'function') return;
  audio ??= new AudioContext();
  const notes = { move: [[660, 0.05]], refused: [[200, 0.12]], won: [[523, 0.12], [659, 0.12], [784, 0.12], [1047, 0.3]] }[kind] ?? [];
  let at = audio.currentTime;
  for (const [frequency, length] of notes) {
    const tone = audio.createOscillator();
    const volume = audio.createGain();
    tone.frequency.value = frequency;
    volume.gain.setValueAtTime(0.08, at);
    volume.gain.exponentialRampToValueAtTime(0.001, at + length);
    tone.connect(volume).connect(audio.destination);
    tone.start(at);
    tone.stop(at + length);
    at += length;
  }
}

/** A buzz on a phone: `kind` as for `sound`. Nothing unless vibration is on and motion is not reduced. */
export function buzz(kind) {
  if (!settings.vibration || reducedMotion() || typeof navigator.vibrate !== 'function') return;
  navigator.vibrate({ move: 10, refused: [40, 60, 40], won: [80, 60, 80, 60, 200] }[kind] ?? 0);
}
