/**
 * What every player sees of moderation: a "Report" control beside another player's name (the standings of a
 * finished race, a leaderboard row, a player page), and the prompt to choose a new name after a moderator
 * replaced one. A report says a reason and a short text; only moderators ever read the text, and the reporter
 * later sees that it was acted on, never how (`get_my_reports`).
 */

import { dataTable, field, formatTime, h, replace } from './dom.js';

const REASONS = [['help', 'Playing with help, or a program'], ['name', 'Offensive name'], ['other', 'Something else']];

/** A "Report" button that opens a small form in place; null for yourself. */
export function reportButton(session, { playerId, name, gameId = null }) {
  if (!playerId || playerId === session.playerId || session.anonymous) return null; // a report is a saved player's
  const box = h('span', { class: 'report', dataset: { reportFor: playerId } });
  const open = h('button', { type: 'button', class: 'quiet report-open', 'aria-label': `Report ${name}`, onclick: () => showForm() }, 'Report');
  box.append(open);

  function showForm() {
    const reason = h('select', {}, REASONS.map(([value, label]) => h('option', { value }, label)));
    const text = h('input', { type: 'text', maxlength: '500', autocomplete: 'off' });
    const status = h('span', { class: 'hint', role: 'status' });
    const send = async (event) => {
      event.preventDefault();
      const request = { type: 'report', player_id: playerId, reason: reason.value, text: text.value };
      if (gameId) request.game_id = gameId;
      try {
        await session.ask(request);
        replace(box, h('span', { class: 'hint report-sent', role: 'status' }, `Report of ${name} received. Thank you.`));
      } catch (error) {
        status.textContent = error.code === 'not_saved' ? 'Save your player with a passkey (Account) to report.' : error.message;
      }
    };
    replace(box, h('form', { class: 'report-form', 'aria-label': `Report ${name}`, onsubmit: send },
      field('Reason', reason), field('What happened', text, 'Only moderators read this.'),
      h('button', { type: 'submit' }, 'Send report'), ' ',
      h('button', { type: 'button', class: 'quiet', onclick: () => replace(box, open) }, 'Cancel'), status));
    reason.focus();
  }
  return box;
}

/** After a moderator replaced your name: a banner asking for another (the old one is nobody's now). */
export function nameChooser(session, replaced, done) {
  const input = h('input', { type: 'text', maxlength: '32', required: true, autocomplete: 'nickname' });
  const status = h('span', { class: 'form-error', role: 'alert' });
  const choose = async (event) => {
    event.preventDefault();
    try {
      await session.ask({ type: 'choose_name', name: input.value }); // the session keeps it (`name_chosen`)
      done();
    } catch (error) {
      status.textContent = error.message;
    }
  };
  return h('form', { class: 'card-panel name-replaced', 'aria-label': 'Choose a new name', onsubmit: choose },
    h('p', {}, `A moderator replaced your name: you are "${replaced}" for now. Choose a new name.`),
    field('New name', input), h('button', { type: 'submit' }, 'Save name'), status);
}

const STATUS_WORDS = { received: 'Received', acted_on: 'Acted on by a moderator', closed: 'Closed without action' };

/** The account page's "Your reports": what became of each (never what was done). */
export function myReportsSection(session) {
  const section = h('section', { class: 'card-panel my-reports', 'aria-labelledby': 'my-reports-title' }, h('h2', { id: 'my-reports-title' }, 'Your reports'));
  session.ask({ type: 'get_my_reports' }).then((reply) => {
    section.append(reply.reports.length ? dataTable('Your reports', ['Player', 'Reason', 'Sent', 'What became of it'],
      reply.reports.map((report) => ({ attributes: { dataset: { reportId: report.report_id, status: report.status } },
        cells: [report.name, REASONS.find(([value]) => value === report.reason)?.[1] ?? report.reason, formatTime(report.at), STATUS_WORDS[report.status]] })))
      : h('p', { class: 'hint' }, 'You have reported nobody.'));
  }).catch((error) => section.append(h('p', { class: 'form-error' }, error.message)));
  return section;
}
