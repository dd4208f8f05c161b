"""The evidence in a moderator's words (core/moderation/evidence.py): each figure read in words, what stands out
said, and a summary that never calls a notable figure nothing (issue 53: "The signals say nothing unusual" beside
a solver agreement of 82 %)."""

from __future__ import annotations

from freecell_arena.core.moderation.evidence import (
    MEANINGS,
    REGULAR,
    WORTH_A_LOOK,
    read_agreement,
    read_regularity,
    signals,
    summary,
    unusual,
)


def test_a_person_like_rhythm_beside_a_high_solver_agreement_is_worth_a_look() -> None:
    said = signals([2.08], [0.82])
    assert len(said) == 1 and "solver's line" in said[0] and "82%" in said[0], said
    assert "Nothing" not in summary([2.08], [0.82]) and "1 thing stands out" in summary([2.08], [0.82])
    assert unusual(2.08, 0.82) == ["solver_line"]
    assert (read_regularity(2.08), read_agreement(0.82)) == ("varies as a person's",
                                                             "much of it on the solver's line: worth a look")


def test_each_reading_and_what_stands_out() -> None:
    assert read_regularity(None).startswith("too few moves")
    assert read_regularity(0.0) == "steady as a program's"
    assert read_regularity(0.4) == "steadier than most people's"
    assert read_agreement(None) == "no solver line for this deal"
    assert read_agreement(1.0) == "the solver's line, move for move"
    assert read_agreement(0.3) == "its own way"
    assert any("paced like a program" in line for line in signals([0.05, 0.1, 0.0], [0.2, 0.3, 0.1]))
    assert signals([1.1, 0.9, 0.05], [0.2, 0.3, 0.1]) == [
        f"1 of 3 games is paced as steadily as a program (variation under {REGULAR})"], "a game the median hides"
    assert signals([1.1, 0.9], [0.2, 0.95]) == ["1 of 2 games is on the solver's line, move for move"]
    assert signals([1.1, 0.9], [0.2, 0.3]) == []


def test_the_summary_says_what_was_measured_whatever_stands_out() -> None:
    assert summary([], []) == "No ranked game yet: nothing to measure."
    calm = summary([1.2, 0.9, None], [0.3, None, 0.2])
    assert calm == ("Over 3 ranked games: median variation of think times 1.05 (varies as a person's); a median 25% "
                    "of moves on the solver's line. Nothing in them stands out."), calm
    assert "too few moves in any game" in summary([None], [0.5])


def test_every_signal_says_what_it_means_and_which_values_are_unusual() -> None:
    assert set(MEANINGS) == {"Regularity", "Solver line", "Think times"}
    assert f"Under {REGULAR}" in MEANINGS["Regularity"] and f"{WORTH_A_LOOK:.0%}" in MEANINGS["Solver line"]
