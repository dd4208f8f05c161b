"""After a race's finish is durable: rate it and work out its par, in the background.

Only the finish this process stored comes here (a finish another process wrote first was refused here, and is
that process's to rate), and only from the timers' path (`ArenaServer.run_timer_effect`, the cluster's
settling): a move never waits for any of it. What rating means is core's (`core.records.race_ratings`); this module
runs it, publishes the changes to the room (to every process's members, in a cluster) and logs a failure
without ever touching the race's result.
"""

from __future__ import annotations

import asyncio
import logging

from freecell_arena.core.events import Publisher, room_topic
from freecell_arena.core.records.race_ratings import (
    FinishedRace,
    RaceEnd,
    RaceRatings,
    rate_finished_race,
    ratings_again,
)
from freecell_arena.net.background import BackgroundTasks
from freecell_arena.net.par_service import ParService
from freecell_arena.net.throttled_log import ThrottledLog, one_line
from freecell_arena.protocol.profiles import RaceRatingsMessage

log = logging.getLogger(__name__)
RATING_WAIT_S = 5.0
RATING_RETRY_PAUSES_S = (0.5, 2.0)
"""Pauses before trying a failed rating again: a race is rated at most once whatever happens (the ledger)."""
PAR_BACKLOG_LIMIT = 8
"""Deals waiting for the solver beyond which a race's end asks for no par: its first review works it out."""


class RaceEndService:
    def __init__(self, ratings: RaceRatings, pars: ParService, publisher: Publisher, *, par_at_end: bool) -> None:
        self.ratings = ratings
        self.pars = pars
        self.publisher = publisher
        self.par_at_end = par_at_end
        self.failures = ThrottledLog(log)
        self._rating = BackgroundTasks()
        self._solving = BackgroundTasks()

    def ended(self, end: RaceEnd) -> None:
        """A race's finish was stored by this process."""
        self._rating.spawn(self._rate(end))
        if self.wants_par(end):
            self._solving.spawn(self._par(end))

    def wants_par(self, end: RaceEnd) -> bool:
        """A race of two or more, while the solver keeps up: a solo room's par waits for a review that asks (a bot
        finishing solo games flat out would otherwise keep the worker busy for nothing), and so does every race's
        while the backlog is long."""
        return self.par_at_end and len(end.placements) >= 2 and self.pars.backlog < PAR_BACKLOG_LIMIT

    async def _rate(self, end: RaceEnd) -> None:
        for pause in (*RATING_RETRY_PAUSES_S, None):
            try:
                message = await rate_finished_race(end, self.ratings)
                break
            except Exception as error:  # the race stands; `freecell-arena audit` names a race left unrated
                self.failures.warning("rate", f"race {end.code} could not be rated: {one_line(error)}")
                if pause is None:
                    return
                await asyncio.sleep(pause)  # a database that failed once may answer again (a rated try is kept)
        if message is not None:
            self.publisher.publish(room_topic(end.code), message)

    async def _par(self, end: RaceEnd) -> None:
        try:
            await self.pars.par_of(end.variant, end.seed)
        except Exception as error:  # a review asks again later
            self.failures.warning("par", f"the par of race {end.code} failed: {one_line(error)}")

    async def ratings_again(self, race: FinishedRace) -> RaceRatingsMessage | None:
        """The rating changes of a finished race, for a player back in its room (a reloaded page): None when it
        rated nobody, is not rated yet (the live `race_ratings` follows), or the store could not say."""
        try:
            return await ratings_again(race, self.ratings)
        except Exception as error:  # the standings still show; only the Rating column is missing
            self.failures.warning("ratings again", f"race {race.code}'s rating changes could not be read: "
                                                   f"{one_line(error)}")  # fmt: skip
            return None

    async def close(self) -> None:
        """Wait a little for ratings being written (a shutdown should not lose them), then cancel what is left (the
        par service is its owner's to close: `ArenaServer` shares it with the queries)."""
        await self._rating.settle(RATING_WAIT_S)
        await self._rating.stop()
        await self._solving.stop()

