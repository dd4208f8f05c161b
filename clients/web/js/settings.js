/** The player's display settings, kept in localStorage: the four-colour suits for colour-blind players. */

const KEY = 'freecell-arena:four-colour';

export const settings = {
  get fourColour() {
    try {
      return localStorage.getItem(KEY) === '1';
    } catch {
      return false;
    }
  },
  setFourColour(on) {
    try {
      localStorage.setItem(KEY, on ? '1' : '0');
    } catch {
      // private mode: the choice lasts for this page only
    }
    document.body.classList.toggle('four-colour', on);
  },
  apply() {
    document.body.classList.toggle('four-colour', this.fourColour);
  },
};
