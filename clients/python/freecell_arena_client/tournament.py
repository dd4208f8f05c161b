"""Play a whole tournament with a bot: enter it, then play every race the server forms for the bot until the
tournament is over (`freecell-arena-bot --tournament ID`).

The server pairs the bot (an arena) or seats it in a heat (a cup) and says so with `tournament_race`; the bot is
already a member of that room, so each race is played exactly as `BotRunner` plays one joined by code. Between
races the bot waits; when nothing comes for a while it asks where the tournament stands: it comes back if the
server paused it (a race it could not play in time), and stops once the tournament is over.

A lost connection (its process restarted or killed, a drain, the network) is reconnected as `BotRunner.run` does, with
the same backoff, and the tournament picked up where the server says it stands: the race in progress resumed from
the resumed `game_state` (its room is the bot's current race: this runner sits in no other), a race that ended
while the bot was away counted without standings, and a race formed meanwhile found in that state too.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace

from freecell_arena.protocol.errors import ErrorCode
from freecell_arena.protocol.play import GameStateMessage
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
        self.races: list[RaceResult] = []
        """The races played so far, kept across reconnects."""
        self.racing = False
        """A race is formed or resumed and not yet played to its end (its room is `code`)."""

    async def run_tournament(self) -> TournamentResult:
        """Enter, then play every race formed for the bot until the tournament is over, on one connection after
        another if one is lost."""
        return await self._reconnecting(self._tournament_session)

    async def _tournament_session(self, client: ArenaClient) -> TournamentResult:
        assert client.welcome is not None
        if client.welcome.resumed:
            self._resume(await client.wait_for(GameStateMessage, self.config.request_timeout_s))
        await self._enter(client)
        while True:
            for event in client.pending_events():
                self._observe(event)
            if self.racing:
                self.races.append(await self._race(client))
                self.racing = False
                continue
            if self.formed:
                self._begin(self.formed.pop(0).code)
                continue
            try:
                self._observe(await client.next_event(self.poll_s))
            except TimeoutError:
                standing = await client.request(TournamentRequest(tournament_id=self.tournament_id),
                                                TournamentMessage)  # fmt: skip
                if standing.tournament.phase == "finished":
                    return TournamentResult(standing, self.races)
                if standing.me is not None and standing.me.status == "paused":  # a race it could not play
                    await client.request(PauseTournamentRequest(tournament_id=self.tournament_id, paused=False),
                                         TournamentEntryMessage)  # fmt: skip

    async def _enter(self, client: ArenaClient) -> None:
        try:
            await client.request(EnterTournamentRequest(tournament_id=self.tournament_id, link_code=self.link_code),
                                 TournamentEntryMessage)  # fmt: skip
        except ArenaError as error:
            if error.code != ErrorCode.already_entered:
                raise
            log.info("already entered: playing on")

    def _begin(self, code: str) -> None:
        """A race of the tournament is formed for the bot in room `code`: forget the last one's game."""
        self.code, self.room, self.game, self.board = code, None, None, None
        self.outcome = self.game_over = self.race_over = None
        self.player_moves, self.time_ms = 0, None
        self.racing = True

    def _resume(self, state: GameStateMessage) -> None:
        """After a reconnect: the room the server still seats the bot in is its current race, whether the runner
        knew of it (the race it was playing) or not (formed while the bot was away: still running, or, once the bot
        has raced in this tournament, already over too, which `_race` then counts without its standings)."""
        room = state.room
        if room is not None and room.code != self.code and (room.status != "finished" or self.racing or self.races):
            if self.racing:  # the race it was playing ended while it was away, and the next one is formed
                log.info("race %s ended while the bot was away", self.code)
                self.races.append(self._result())
            self._begin(room.code)
        self._adopt(state)

    async def _race(self, client: ArenaClient) -> RaceResult:
        """The current race, from its countdown (or wherever a reconnect found it) to its standings."""
        self._adopt(await client.get_state())
        room_over = self.room is None or self.room.status == "finished"
        if room_over and self.race_over is None and (self.game is None or self.outcome is not None):
            log.info("race %s ended while the bot was away", self.code)  # its standings went to the lost connection
            return self._result()
        await self._wait_for_start(client)
        if self.outcome is None:
            await self._play(client)
        return await self._finish(client)

    def _observe(self, event: ServerMessage) -> None:
        if isinstance(event, TournamentRaceMessage) and event.tournament_id == self.tournament_id:
            self.formed.append(event)
            return
        super()._observe(event)
