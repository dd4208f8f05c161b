"""Play a whole tournament with a bot: enter it, then play every race the server forms for the bot until the
tournament is over (`freecell-arena-bot --tournament ID`).

The server pairs the bot (an arena) or seats it in a heat (a cup) and says so with `tournament_race`; the bot is
already a member of that room, so each race is played exactly as `BotRunner` plays one joined by code. Between
races the bot waits; when nothing comes for a while it asks where the tournament stands: it comes back if the
server paused it (a race it could not play in time), and stops once the tournament is over.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace

from freecell_arena.protocol.errors import ErrorCode
from freecell_arena.protocol.registry import ServerMessage
from freecell_arena.protocol.tournaments import (
    EnterTournamentRequest,
    PauseTournamentRequest,
    TournamentEntryMessage,
    TournamentMessage,
    TournamentRaceMessage,
    TournamentRequest,
)
from freecell_arena_client.bot import Bot
from freecell_arena_client.client import ArenaClient
from freecell_arena_client.errors import ArenaError
from freecell_arena_client.runner import BotRunner, RaceResult, RunConfig

log = logging.getLogger(__name__)

WAITING = "-"
"""The runner's room before the first race is formed (`RunConfig` wants one)."""


@dataclass
class TournamentResult:
    tournament: TournamentMessage
    races: list[RaceResult] = field(default_factory=list)


class TournamentRunner(BotRunner):
    def __init__(self, bot: Bot, config: RunConfig, tournament_id: str, *, link_code: str | None = None,
                 poll_s: float = 5.0) -> None:  # fmt: skip
        super().__init__(bot, replace(config, room=WAITING, create=None, daily=None))
        self.tournament_id = tournament_id
        self.link_code = link_code
        self.poll_s = poll_s
        self.formed: list[TournamentRaceMessage] = []

    async def run_tournament(self) -> TournamentResult:
        client = await self._connect()
        try:
            await self._enter(client)
            races: list[RaceResult] = []
            while True:
                for event in client.pending_events():
                    self._observe(event)
                if self.formed:
                    races.append(await self._race(client, self.formed.pop(0)))
                    continue
                try:
                    self._observe(await client.next_event(self.poll_s))
                except TimeoutError:
                    standing = await client.request(TournamentRequest(tournament_id=self.tournament_id),
                                                    TournamentMessage)  # fmt: skip
                    if standing.tournament.phase == "finished":
                        return TournamentResult(standing, races)
                    if standing.me is not None and standing.me.status == "paused":  # a race it could not play
                        await client.request(PauseTournamentRequest(tournament_id=self.tournament_id, paused=False),
                                             TournamentEntryMessage)  # fmt: skip
        finally:
            await client.close()

    async def _enter(self, client: ArenaClient) -> None:
        try:
            await client.request(EnterTournamentRequest(tournament_id=self.tournament_id, link_code=self.link_code),
                                 TournamentEntryMessage)  # fmt: skip
        except ArenaError as error:
            if error.code != ErrorCode.already_entered:
                raise
            log.info("already entered: playing on")

    async def _race(self, client: ArenaClient, formed: TournamentRaceMessage) -> RaceResult:
        """One race of the tournament, from its countdown to its standings."""
        self.code, self.room, self.game, self.board = formed.code, None, None, None
        self.outcome = self.game_over = self.race_over = None
        self.player_moves, self.time_ms = 0, None
        self._adopt(await client.get_state())
        await self._wait_for_start(client)
        if self.outcome is None:
            await self._play(client)
        return await self._finish(client)

    def _observe(self, event: ServerMessage) -> None:
        if isinstance(event, TournamentRaceMessage) and event.tournament_id == self.tournament_id:
            self.formed.append(event)
            return
        super()._observe(event)
