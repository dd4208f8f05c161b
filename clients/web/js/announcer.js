/**
 * The live region: accepted moves, refusals and race events are announced here (role "log"), and kept as
 * a short visible list so a sighted player sees the same thing a screen reader says.
 */

const KEEP = 40;

export class Announcer {
  constructor(element) {
    this.element = element;
    this.scrollQueued = false;
  }

  /** A new page: what was said about the last one (a room's race, its moves) does not follow the player. */
  clear() {
    this.element?.replaceChildren();
  }

  /** `kind` styles the line: "info", "move", "refusal", "race", "error". */
  say(text, kind = 'info') {
    if (!this.element) return;
    const line = document.createElement('p');
    line.className = `announcement kind-${kind}`;
    line.dataset.kind = kind;
    line.textContent = text;
    this.element.append(line);
    while (this.element.childElementCount > KEEP) this.element.firstElementChild.remove();
    // Scrolled to the newest line in the coming frame, where the page is laid out anyway: reading scrollHeight
    // here would lay it out once more, in the middle of applying a move.
    if (this.scrollQueued) return;
    this.scrollQueued = true;
    requestAnimationFrame(() => {
      this.scrollQueued = false;
      this.element.scrollTop = this.element.scrollHeight;
    });
  }
}
