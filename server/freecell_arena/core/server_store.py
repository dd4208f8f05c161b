"""The whole store the server process uses, as net sees it: core's `Store` (the records a request leaves), the
reads the store answers (`core.ports.reads`), and each part's own port (accounts, ratings, pars, profiles,
tournaments, moderation). `freecell_arena.store.SqlStore` implements it.

Why at the top of core and not among the ports: it names every part's port, so it sits above every part; the ports
below it name nothing above them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from freecell_arena.core.accounts.account_ports import AccountStore
from freecell_arena.core.moderation.exported import ExportReader
from freecell_arena.core.moderation.ports import ModerationPort
from freecell_arena.core.ports.reads import DailyDeals, HistoryReader, LeaderboardReader, SeasonReader
from freecell_arena.core.ports.records import Store, StoredRoom
from freecell_arena.core.records.profiles import ProfileReads
from freecell_arena.core.records.race_ratings import RatingStorePort
from freecell_arena.core.records.review import ParLedger
from freecell_arena.core.records.tournaments.state import TournamentReads


class ServerStore(Store, Protocol):
    """The whole store the server process uses: the core's `Store` plus the read sides."""

    async def ping(self) -> None:
        """Raise unless the database answers now."""
        ...

    async def live_rooms(self) -> list[StoredRoom]:
        """Lobbies, countdowns and running races: what a starting process picks up."""
        ...

    async def room_versions(self, room_ids: Sequence[str]) -> dict[str, tuple[int, str]]:
        """The stored (seq, tag) of each room, in one query."""
        ...

    async def quick_room(self, variant: str) -> str | None:
        """The code of the variant's filling quick-race room (None: there never was one)."""
        ...

    async def live_rooms_of(self, player_id: str) -> list[StoredRoom]:
        """The live rooms a player is a member of (a returning player finds their lobby on any process)."""
        ...

    @property
    def leaderboards(self) -> LeaderboardReader: ...

    @property
    def seasons(self) -> SeasonReader: ...

    @property
    def history(self) -> HistoryReader: ...

    @property
    def dailies(self) -> DailyDeals: ...

    @property
    def exports(self) -> ExportReader:
        """Public finished games as open data (`GET /api/players/{player_id}/games`, `freecell-arena export`)."""
        ...

    @property
    def accounts(self) -> AccountStore:
        """Saved players, claimed names, passkeys and tokens (`core.accounts.account_ports`)."""
        ...

    @property
    def ratings(self) -> RatingStorePort: ...

    @property
    def pars(self) -> ParLedger: ...

    @property
    def profiles(self) -> ProfileReads: ...

    @property
    def tournaments(self) -> TournamentReads: ...

    @property
    def moderation(self) -> ModerationPort:
        """Roles, reports, the mod log and sanctions (`core.moderation.ports`)."""
        ...
