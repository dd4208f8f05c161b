/**
 * The live region: accepted moves, refusals and race events are announced here (role "log"), and kept as
 * a short visible list so a sighted player sees the same thing a screen reader says.
 */

const KEEP = 40;

export class Announcer {
  constructor(element) {
    this.element = element;
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
    this.element.scrollTop = this.element.scrollHeight;
  }
}
