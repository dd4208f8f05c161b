/**
 * Where a player's line got longer than the solver's: the review's one question. Both lines are boards after each
 * action (a replay's views); progress is cards on the foundations. For each count of cards home, the action after
 * which a line first had that many; the first count a player reached later than the solver is where moves were
 * lost (every count before it, they kept pace). Pure: the views in, the point out.
 */

/** Cards on the foundations of a view (the server counts them; an old view without the count is summed). */
export function cardsHome(view) {
  if (typeof view?.cards_on_foundations === 'number') return view.cards_on_foundations;
  return (view?.foundations ?? []).reduce((sum, slot) => sum + (slot.cards ?? 0), 0);
}

/** `reached[c]`: the first action count after which `views` had at least `c` cards home (index 0 unused). */
export function firstReached(views) {
  const reached = [0];
  views.forEach((view, step) => {
    for (let cards = reached.length; cards <= cardsHome(view); cards += 1) reached[cards] = step;
  });
  return reached;
}

/**
 * The first point where `yours` got longer than `par`: `{cards, yourMove, parMove, keptUntil}` (the count of
 * cards home, the action after which each line first had it, and the action of yours where you still kept pace),
 * or null when you never fell behind (you kept pace up to your last card home).
 */
export function firstLoss(yours, par) {
  const mine = firstReached(yours);
  const solver = firstReached(par);
  const opening = cardsHome(yours[0]);
  for (let cards = opening + 1; cards < Math.min(mine.length, solver.length); cards += 1) {
    if (mine[cards] > solver[cards]) return { cards, yourMove: mine[cards], parMove: solver[cards], keptUntil: mine[cards - 1] ?? 0 };
  }
  if (mine.length < solver.length && yours.length - 1 > (solver[mine.length - 1] ?? 0)) { // stopped short: behind at the next card
    const cards = mine.length;
    return { cards, yourMove: null, parMove: solver[cards], keptUntil: mine[cards - 1] ?? 0 };
  }
  return null;
}
