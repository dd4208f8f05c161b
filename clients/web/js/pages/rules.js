/** The rules of a variant (`#/rules/VARIANT`), open to a first visit: what a player needs before a first race. */

import { h } from '../dom.js';
import { VARIANTS, variantName } from '../notation.js';
import { viewHref } from '../router.js';
import { COMMON, RULES } from '../rules-text.js';

export function rulesPage(main, { location, variant }) {
  const id = RULES[variant] ? variant : 'freecell';
  const rules = RULES[id];
  const section = ([title, text]) => h('section', { class: 'rule' }, h('h3', {}, title), h('p', {}, text));
  main.replaceChildren(h('div', { class: 'rules-page', dataset: { variant: id } },
    h('h1', {}, `How to play ${variantName(id)}`),
    h('nav', { class: 'tabs', 'aria-label': 'Variants' }, VARIANTS.map((item) => h('a', {
      href: viewHref(location, `/rules/${item.id}`), 'aria-current': item.id === id ? 'page' : null,
    }, item.name))),
    h('p', { class: 'rules-summary' }, rules.summary),
    h('p', { class: 'rules-shape', dataset: { cards: rules.cards, columns: rules.columns, cells: rules.cells, foundations: rules.foundations } },
      `${rules.cards} cards · ${rules.columns} columns · ${rules.cells} free cells · ${rules.foundations} foundations`),
    h('div', { class: 'card-panel rules-body' }, h('h2', {}, `${variantName(id)}`), rules.sections.map(section)),
    h('div', { class: 'card-panel rules-body' }, h('h2', {}, 'In every variant'), COMMON.map(section)),
    h('p', {}, h('a', { href: viewHref(location, '/') }, 'Back to play'))));
  return { destroy() {} };
}
