/**
 * The player's display settings, kept in localStorage: four-colour suits for colour-blind players, sounds and
 * vibration (both off until turned on, and silent under reduced motion: celebrate.js), and the board's zoom.
 */

const KEYS = {
  fourColour: 'freecell-arena:four-colour',
  sounds: 'freecell-arena:sounds',
  vibration: 'freecell-arena:vibration',
  zoom: 'freecell-arena:zoom',
};

function read(key) {
  try {
    return localStorage.getItem(key) === '1';
  } catch {
    return false;
  }
}

function write(key, on) {
  try {
    localStorage.setItem(key, on ? '1' : '0');
  } catch {
    // private mode: the choice lasts for this page only
  }
}

export const settings = {
  get fourColour() { return read(KEYS.fourColour); },
  get sounds() { return read(KEYS.sounds); },
  get vibration() { return read(KEYS.vibration); },
  get zoom() { return read(KEYS.zoom); },
  set(name, on) {
    write(KEYS[name], on);
    if (name === 'fourColour') document.body.classList.toggle('four-colour', on);
  },
  setFourColour(on) {
    this.set('fourColour', on);
  },
  apply() {
    document.body.classList.toggle('four-colour', this.fourColour);
  },
};
