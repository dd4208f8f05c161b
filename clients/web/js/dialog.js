/**
 * Asking before what cannot be taken back (resigning, leaving a race): a modal `<dialog>` (the browser's own:
 * focus moves into it and stays there, Esc cancels, a screen reader hears its title), answered true or false.
 * The safe answer has the focus, so a stray Enter keeps the game.
 */

import { h } from './dom.js';

export function confirmAction({ title, text, confirm, cancel = 'Keep playing' }) {
  return new Promise((resolve) => {
    const titleId = `dialog-${Math.random().toString(36).slice(2, 8)}`;
    const keep = h('button', { type: 'button', class: 'primary', onclick: () => close(false) }, cancel);
    const go = h('button', { type: 'button', class: 'danger', onclick: () => close(true) }, confirm);
    const dialog = h('dialog', { class: 'confirm', 'aria-labelledby': titleId, oncancel: () => close(false) },
      h('h2', { id: titleId }, title), h('p', {}, text), h('div', { class: 'dialog-buttons' }, keep, go));
    let answered = false;
    function close(answer) {
      if (answered) return;
      answered = true;
      dialog.close();
      dialog.remove();
      resolve(answer);
    }
    document.body.append(dialog);
    dialog.showModal();
    keep.focus();
  });
}
