/**
 * Each variant's rules as a player reads them, from the rule documents (`../shared/rules/`) as RULINGS settles them
 * and docs/rules.md says the engine plays them. `tests/web/test_browser_players.py` checks the numbers the page
 * shows against the engine's variants (cards, columns, cells, foundations).
 */

const COMMON = [
  ['Moves and undo', 'Every move you make counts one, a run of cards moved at once included; an undo takes back your last move and counts one too. Cards the game sends home on its own (autoplay, when the room has it) do not count.'],
  ['Autoplay', 'With autoplay on, a card goes to its foundation by itself once nothing still on the table could be built on it (Aces and Twos always).'],
  ['Time', 'The server\u2019s clock runs from the deal (a race\u2019s common start) to your winning move; leaving the page does not stop it.'],
  ['The end', 'You win when every card is home. With no legal move left the game is stuck: undo, if it can help, or resign.'],
];

export const RULES = Object.freeze({
  freecell: {
    cards: 52, columns: 8, cells: 4, foundations: 4,
    summary: 'The classic: one deck, every card face up from the start, four free cells. Nearly every deal can be won by planning.',
    sections: [
      ['The deal', '52 cards face up in 8 columns: the first four hold 7 cards, the last four 6. The 4 free cells and 4 foundations start empty. A deal number is the Windows FreeCell deal of that number.'],
      ['Building', 'A card goes on a column\u2019s top card one rank higher and of the other colour (a black 7 on a red 8). Any card may go to an empty column.'],
      ['Free cells', 'Each holds one card; a card in a cell may go back to a column or home.'],
      ['Moving runs', 'A run (cards in descending, alternating order) moves at once when it is no longer than (1 + empty cells) \u00d7 (1 + empty columns) onto a card, or (1 + empty cells) \u00d7 (empty columns, the destination counted) into an empty column.'],
      ['Foundations', 'One per suit, built up from Ace to King.'],
    ],
  },
  'chinese-freecell': {
    cards: 78, columns: 11, cells: 4, foundations: 6,
    summary: 'Three suits (diamonds, hearts, spades) from two decks; build on any other suit; only a King fills an empty column.',
    sections: [
      ['The deal', '78 cards face up in 11 columns: 7 full rows, then the last card on column 11 (which holds 8). 4 free cells, 6 foundations (two per suit).'],
      ['Building', 'A card goes on a card one rank higher of any other suit (never the same suit). Only a King, or a run headed by a King, may go to an empty column.'],
      ['Moving runs', 'A run moves at once when it is no longer than empty cells + 1 (empty columns do not add).'],
      ['Foundations', 'Two per suit, each built up from Ace to King; any Ace of a suit may start either.'],
    ],
  },
  'freecell-four-deck': {
    cards: 208, columns: 14, cells: 14, foundations: 16,
    summary: 'Four decks, fourteen columns, fourteen cells: FreeCell at length.',
    sections: [
      ['The deal', '208 cards face up in 14 columns: columns 1 to 12 hold 15 cards, 13 and 14 hold 14. 14 free cells, 16 foundations (four per suit).'],
      ['Building', 'As in FreeCell: one rank lower, the other colour; any card to an empty column.'],
      ['Moving runs', 'A run moves at once when it is no longer than empty cells + 1 (empty columns do not add).'],
      ['Foundations', 'Four per suit, each built up from Ace to King; any Ace of a suit may start any of them.'],
    ],
  },
  'cell-eleven': {
    cards: 52, columns: 7, cells: 11, foundations: 4,
    summary: 'A Klondike deal with face-down cards and eleven free cells; one card moves at a time.',
    sections: [
      ['The deal', '52 cards in 7 piles holding 1, 6, 7, 8, 9, 10 and 11 cards; only each pile\u2019s top card is face up. A face-down card turns up when it becomes a top card. 11 free cells, 4 foundations. The deal stays secret until the race is over (its seed would show every card).'],
      ['Building', 'One rank lower and the other colour; any card to an empty pile. One card moves at a time.'],
      ['Undo', 'A move that turned a card face up cannot be taken back.'],
      ['Foundations', 'One per suit, built up from Ace to King.'],
    ],
  },
  'freecell-three-deck': {
    cards: 156, columns: 12, cells: 6, foundations: 4,
    summary: 'Three decks, twelve columns, six cells; each foundation climbs Ace to King three times.',
    sections: [
      ['The deal', '156 cards face up in 12 columns of 13. 6 free cells, 4 foundations. No undo unless the room allows it.'],
      ['Building', 'As in FreeCell: one rank lower, the other colour; any card to an empty column.'],
      ['Moving runs', 'A run moves at once when it is no longer than (empty cells + 1) \u00d7 2 to the power of the empty columns (the destination not counted).'],
      ['Foundations', 'One per suit, each built Ace to King three times over: after a King, the next card is an Ace of the same suit again (39 cards each).'],
    ],
  },
});

export { COMMON };
