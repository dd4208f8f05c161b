"""A tournament's stored figures checked against the stored results: `freecell-arena audit`.

The final table is recomputed from the races' stored results (`scoring`) with the moderators' sanctions in force
(the snapshot's `sanctions` and `banned`), and each row compared with the stored one, field by field; a cup's
revealed deals must hash to the commitment stored before it opened; the stored count of entrants (what listings
show) must be the number of its entries. A running tournament's stored table is provisional (the director
refreshes it as races finish): only final ones are held to the recomputation.
"""

from __future__ import annotations

from freecell_arena.core.competition.tournaments.cup import verify_reveal
from freecell_arena.core.records.tournaments.rules import CUP
from freecell_arena.core.records.tournaments.state import TournamentSnapshot, table_of


def check_tournament(snapshot: TournamentSnapshot) -> list[str]:
    """One line per stored figure that differs from the recomputation (none: the tournament adds up)."""
    stored = snapshot.stored
    name = f"tournament {stored.tournament_id}"
    lines = []
    if stored.entrants != len(snapshot.entries):  # the count listings show, kept beside the entries it counts
        lines.append(f"{name}: stored entrants={stored.entrants}, its entries are {len(snapshot.entries)}")
    if not stored.final:
        return lines
    recomputed = {row.player_id: row.to_json() for row in table_of(snapshot)}
    kept = {row.player_id: row.to_json() for row in stored.standings}
    for player_id in sorted(recomputed.keys() | kept.keys()):
        mine, theirs = kept.get(player_id), recomputed.get(player_id)
        if mine is None or theirs is None:
            where = "only in the stored table" if theirs is None else "missing from the stored table"
            lines.append(f"{name}: {player_id} {where}")
            continue
        for key in sorted(mine.keys() | theirs.keys()):
            if mine.get(key) != theirs.get(key):
                lines.append(f"{name}: {player_id} stored {key}={mine.get(key)!r}, the results give "
                             f"{theirs.get(key)!r}")  # fmt: skip
    if stored.record.kind == CUP and stored.record.commitment is not None:
        reveal = stored.reveal or {}
        deals, nonce = reveal.get("deals"), reveal.get("nonce")
        if not isinstance(deals, list) or not isinstance(nonce, str) or not verify_reveal(
                stored.tournament_id, stored.record.variant, deals, nonce, stored.record.commitment):  # fmt: skip
            lines.append(f"{name}: the revealed deals do not match the commitment stored before it opened")
    return lines
