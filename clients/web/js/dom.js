/**
 * Building the page from code, safely: every text goes in as a text node (textContent), never as HTML, so
 * a player named `<img src=x onerror=alert(1)>` shows as those characters.
 */

/**
 * `h('button', {class: 'primary', onclick: fn, 'aria-label': 'Undo'}, 'Undo')`: an element with attributes
 * (functions starting "on" become listeners, `dataset` an object of data- attributes, false/null skipped)
 * and children (strings become text nodes; arrays are flattened; null skipped).
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') {
      element.addEventListener(name.slice(2), value);
    } else if (name === 'dataset') {
      for (const [key, data] of Object.entries(value)) {
        if (data !== null && data !== undefined) element.dataset[key] = String(data);
      }
    } else if (name === 'class') {
      element.className = value;
    } else if (name === 'style') {
      element.style.cssText = value; // through the CSSOM: a Content-Security-Policy without inline styles allows it
    } else if (name === 'value' || name === 'checked' || name === 'disabled' || name === 'selected') {
      element[name] = value;
    } else {
      element.setAttribute(name, value === true ? '' : String(value));
    }
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(element, child);
    else element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces what `element` holds with `children`. */
export function replace(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

/** A labelled form field: <label>Text <input></label>, so its accessible name is the label. */
export function field(label, control, hint = null) {
  return h('label', { class: 'field' }, h('span', { class: 'field-label' }, label), control,
    hint ? h('small', { class: 'hint' }, hint) : null);
}

export function formatTime(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleString();
}

/** The time of day alone, where the day is said once already (a daily board): a narrow column on a phone. */
export function formatClock(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

/** A table: `headers` are column titles; each row is a list of cells (text or nodes) or {cells, attributes}. */
export function dataTable(caption, headers, rows) {
  return h('table', {},
    caption ? h('caption', { class: 'visually-hidden' }, caption) : null,
    h('thead', {}, h('tr', {}, headers.map((title) => h('th', { scope: 'col' }, title)))),
    h('tbody', {}, rows.map((row) => {
      const { cells, attributes } = Array.isArray(row) ? { cells: row, attributes: {} } : row;
      return h('tr', attributes, cells.map((cell) => h('td', {}, cell)));
    })));
}

/** A message where a page's content would be: an error in words, and what to do about it. */
export function notice(text, ...actions) {
  return h('p', { class: 'form-error', role: 'alert' }, text, actions.length ? ' ' : null, ...actions);
}

/** A player's name on a board, linking to their games; a claimed name (a saved player's or a bot account's:
 * nobody else may take it or a look-alike) is marked. */
export function boardName(row, href, attributes = {}) {
  return h('a', { href, ...attributes }, row.name, row.claimed
    ? [h('span', { class: 'claimed', 'aria-hidden': 'true', title: 'Claimed name: a saved player' }, ' \u2713'),
      h('span', { class: 'visually-hidden' }, ' (claimed name)')]
    : null);
}
