"""Core's benches keep working: short real runs print each figure beside its baseline (figures are read by people,
never asserted). bench/race_clock.py fails itself if a race it set up rings; bench/race_life.py if a race it lived
through was not begun or finished by its ticks."""

from __future__ import annotations

from bench_runs import run_bench


def test_the_race_clock_bench_runs_and_prints_both_ticks() -> None:
    out = run_bench("race_clock.py", "--races", "500", "--ticks", "20")
    assert "baseline: a tick with no race running" in out, out
    assert "a tick with 500 races running (none due)" in out and "x baseline" in out, out


def test_the_race_life_bench_lives_every_step_and_prints_it_beside_one_action() -> None:
    out = run_bench("race_life.py", "--races", "30", "--runs", "1")
    assert "baseline: one action of a game" in out, out
    for step in ("create_room", "start_race", "the tick that begins", "resign", "the tick that finishes", "leave_room"):
        assert f"  {step} " in out, out
    assert "x one action" in out, out
