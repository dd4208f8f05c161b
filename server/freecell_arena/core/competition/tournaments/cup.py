"""A cup's deals and heats: one deal a round, committed before the cup opens and revealed at its end; every
entrant seated in a heat of at most `heat_size` at the round's instant.

- **Seeds.** Round *r*'s seed is `HMAC-SHA256(secret, "freecell-arena/cup/v1/seed|tournament|variant|r")` read as
  a 128-bit integer reduced into the variant's seed range: nobody without the server's secret can compute it,
  and every process with it computes the same one (as the dailies' deals, `core.records.daily`).
- **Commitment.** Stored and shown from the cup's creation: `SHA-256("freecell-arena/cup/v1|tournament|variant|
  seed_0,seed_1,...|nonce")` with a secret nonce (HMAC of the tournament id). When the cup is over the seeds and
  the nonce are revealed and anyone can recompute the hash (`verify_reveal`); the nonce makes it hiding as well
  as binding (a bare hash of 2^31 deal numbers could be inverted by trying them all).
- **Heats.** The entrants are spread over `ceil(n / heat_size)` heats as evenly as possible, in the order of the
  cup's table so far (neighbours in the table race in the same heat, as a chess swiss pairs by score).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass

from freecell_arena.engine import variant_by_id

DOMAIN = "freecell-arena/cup/v1"


def round_seed(secret: bytes, tournament_id: str, variant_id: str, round_index: int) -> int:
    message = f"{DOMAIN}/seed|{tournament_id}|{variant_id}|{round_index}".encode()
    digest = hmac.new(secret, message, hashlib.sha256).digest()
    low, high = variant_by_id(variant_id).seed_range
    return low + int.from_bytes(digest[:16], "big") % (high - low + 1)


def cup_nonce(secret: bytes, tournament_id: str) -> str:
    return hmac.new(secret, f"{DOMAIN}/nonce|{tournament_id}".encode(), hashlib.sha256).hexdigest()


def commitment(tournament_id: str, variant_id: str, seeds: Sequence[int], nonce: str) -> str:
    text = f"{DOMAIN}|{tournament_id}|{variant_id}|{','.join(map(str, seeds))}|{nonce}"
    return hashlib.sha256(text.encode()).hexdigest()


def verify_reveal(tournament_id: str, variant_id: str, seeds: Sequence[int], nonce: str, published: str) -> bool:
    """What anyone can check once a cup is over: its revealed deals are the ones committed to before it opened."""
    return hmac.compare_digest(commitment(tournament_id, variant_id, seeds, nonce), published)


@dataclass(frozen=True, slots=True)
class CupDeals:
    seeds: tuple[int, ...]
    nonce: str
    commitment: str


def cup_deals(secret: bytes, tournament_id: str, variant_id: str, rounds: int,
              chosen: int | None = None) -> CupDeals:  # fmt: skip
    """Every round's deal (a chosen deal: the same in every round) and the commitment to them."""
    seeds = tuple(chosen if chosen is not None else round_seed(secret, tournament_id, variant_id, index)
                  for index in range(rounds))  # fmt: skip
    nonce = cup_nonce(secret, tournament_id)
    return CupDeals(seeds, nonce, commitment(tournament_id, variant_id, seeds, nonce))


def heats(players: Sequence[str], heat_size: int) -> list[list[str]]:
    """`players` (in table order) in `ceil(n / heat_size)` heats whose sizes differ by one at most."""
    if not players:
        return []
    count = -(-len(players) // heat_size)
    base, extra = divmod(len(players), count)
    result, start = [], 0
    for index in range(count):
        size = base + (index < extra)
        result.append(list(players[start:start + size]))
        start += size
    return result
