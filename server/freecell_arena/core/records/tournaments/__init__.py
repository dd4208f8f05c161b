"""A tournament as the store has it and the table derived from it: its rules, its scoring, its stored state read back
whole. Below live play and the store, which read them; the desk that pairs, deals and opens rooms is competition's
(`core.competition.tournaments`, docs/tournaments.md)."""
