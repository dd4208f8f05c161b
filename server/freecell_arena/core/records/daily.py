"""The daily challenge's deal: derived from a server secret, certified by the solver, committed then revealed.

One deal per variant per UTC day, open from 00:00 to 24:00 UTC.

- **Seed.** Candidate *k* of a day is `HMAC-SHA256(secret, "freecell-arena/daily/v1/seed|variant|day|k")`,
  read as a 128-bit integer and reduced into the variant's seed range. No one without the secret can compute
  it ahead; every process with the secret computes the same one. Candidate 0, 1, 2... are tried in turn until
  the solver certifies one solvable within a fixed node budget (a node budget, not a time budget, so the
  choice does not depend on how busy the machine is); its move count with autoplay on is the day's par.
- **Commitment.** Published before the day opens: `SHA-256("freecell-arena/daily/v1|variant|day|seed|nonce")`
  with `nonce = HMAC-SHA256(secret, "freecell-arena/daily/v1/nonce|variant|day")` in hex. When the day
  closes the seed and the nonce are revealed and anyone can recompute the hash (`verify_reveal`).
  The nonce is what makes the commitment binding *and hiding*: a bare SHA-256 of the seed could be inverted
  by trying every seed, and `freecell` has only 2^31 deal numbers (minutes on a laptop), which would give the
  day's deal away before it opens. With 256 secret bits in the hashed text there is nothing to enumerate.

Pure CPU and pure functions: `prepare_daily` runs in a worker process (`freecell_arena.net.daily_service`), never on
the event loop.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Sequence
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, Literal

from freecell_arena.core.ports.records import DailyRecord
from freecell_arena.engine import RULES_VERSION, Board, Game, Move, ReplayError, Variant, variant_by_id
from freecell_arena.engine.solver import Status, solve
from freecell_arena.protocol.leaderboards import DailyDeal

DOMAIN = "freecell-arena/daily/v1"
DAY = timedelta(days=1)


class NoCertifiedDeal(RuntimeError):
    """No candidate of the day was certified within the budget (raise the budget or the candidate count)."""


# ---------------------------------------------------------------- the day


def today(now: datetime) -> date:
    return now.astimezone(UTC).date()


def opens_at(day: date) -> datetime:
    return datetime.combine(day, time(0), UTC)


def closes_at(day: date) -> datetime:
    return opens_at(day) + DAY


def rankable_for(created_at: datetime, day: date) -> bool:
    """Whether a player made at `created_at` may rank on `day`'s daily: only if they existed before its deal
    opened (a throwaway identity must not scout the deal for a second, ranked one; docs/leaderboards.md)."""
    return created_at < opens_at(day)


UnrankedReason = Literal["new_player", "played_before"]


def unranked_reason(ranked: bool, created_at: datetime, day: date) -> UnrankedReason | None:
    """Why a daily game is practice, as `daily_started` says it (None: it is ranked)."""
    if ranked:
        return None
    return "played_before" if rankable_for(created_at, day) else "new_player"


def is_closed(day: date, now: datetime) -> bool:
    """Closed days have public seeds, public replays and final ranks."""
    return now >= closes_at(day)


def status(day: date, now: datetime) -> str:
    if now < opens_at(day):
        return "upcoming"
    return "closed" if is_closed(day, now) else "open"


# ---------------------------------------------------------------- seed, nonce, commitment


def candidate_seed(secret: bytes, variant: Variant, day: date, candidate: int) -> int:
    message = f"{DOMAIN}/seed|{variant.id}|{day.isoformat()}|{candidate}".encode()
    digest = hmac.new(secret, message, hashlib.sha256).digest()
    low, high = variant.seed_range
    return low + int.from_bytes(digest[:16], "big") % (high - low + 1)


def daily_nonce(secret: bytes, variant_id: str, day: date) -> str:
    message = f"{DOMAIN}/nonce|{variant_id}|{day.isoformat()}".encode()
    return hmac.new(secret, message, hashlib.sha256).hexdigest()


def commitment(variant_id: str, day: date, seed: int, nonce: str) -> str:
    return hashlib.sha256(f"{DOMAIN}|{variant_id}|{day.isoformat()}|{seed}|{nonce}".encode()).hexdigest()


def verify_reveal(variant_id: str, day: date, seed: int, nonce: str, published: str) -> bool:
    """What anyone can check once a day closes: the revealed seed is the one committed to before it opened."""
    return hmac.compare_digest(commitment(variant_id, day, seed, nonce), published)


def verify_solution(variant_id: str, seed: int, solution: Sequence[str], par: int) -> bool:
    """The revealed solution wins the deal in `par` moves with autoplay on (the variant's undo rule)."""
    try:
        game = Game.replay(variant_by_id(variant_id), seed, solution, autoplay=True)
    except ReplayError:
        return False
    return game.board.is_won() and game.player_moves == par


# ---------------------------------------------------------------- preparing a day


def player_actions(variant: Variant, seed: int, moves: Sequence[Move]) -> list[str]:
    """The solver's certified moves (foundation moves written out) as a player types them with autoplay on.

    The certified list is: the opening autoplay, then each player move followed by the autoplay after it,
    all made by the engine's `safe_autoplay`; a `Game` with autoplay on makes exactly those moves itself.
    """
    game = Game(variant, seed, autoplay=True)
    remaining = list(moves)
    if remaining[: len(game.opening_autoplay)] != game.opening_autoplay:
        raise ValueError("the solution does not start with the deal's opening autoplay")
    position = len(game.opening_autoplay)
    while position < len(remaining):
        turn = game.play(remaining[position])
        position += 1
        if remaining[position : position + len(turn.autoplay)] != turn.autoplay:
            raise ValueError(f"the solution disagrees with autoplay after action {len(game.actions)}")
        position += len(turn.autoplay)
    if not game.board.is_won():
        raise ValueError("the solution does not win")
    return list(game.actions)


Solver = Callable[..., Any]


def prepare_daily(
    secret: bytes,
    variant_id: str,
    day: date,
    prepared_at: datetime,
    *,
    max_nodes: int,
    budget_s: float,
    max_candidates: int,
    solver: Solver = solve,
) -> DailyRecord:
    """The day's deal: the first candidate the solver certifies solvable. Deterministic for a given secret."""
    variant = variant_by_id(variant_id)
    nonce = daily_nonce(secret, variant.id, day)
    for candidate in range(max_candidates):
        seed = candidate_seed(secret, variant, day, candidate)
        result = solver(Board.deal(variant, seed), budget=budget_s, max_nodes=max_nodes)
        if result.status is not Status.SOLVED or result.solution is None:
            continue
        actions = player_actions(variant, seed, result.solution.moves)
        return DailyRecord(
            variant=variant.id,
            day=day,
            seed=seed,
            candidate=candidate,
            nonce=nonce,
            commitment=commitment(variant.id, day, seed, nonce),
            par=len(actions),
            solution=tuple(actions),
            rules_version=RULES_VERSION,
            prepared_at=prepared_at,
        )
    raise NoCertifiedDeal(f"no {variant_id} deal for {day} certified in {max_candidates} candidates")


# ---------------------------------------------------------------- what the public sees


def public_view(record: DailyRecord, now: datetime) -> DailyDeal:
    """The commitment always; the par once the day opens; the seed, nonce and solution once it closes."""
    state = status(record.day, now)
    closed = state == "closed"
    return DailyDeal(
        variant=record.variant,
        day=record.day,
        status=state,
        opens_at=opens_at(record.day),
        closes_at=closes_at(record.day),
        commitment=record.commitment,
        par=record.par if state != "upcoming" else None,
        seed=record.seed if closed else None,
        nonce=record.nonce if closed else None,
        solution=list(record.solution) if closed else None,
        rules_version=record.rules_version,
    )
