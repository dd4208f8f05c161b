"""The house bot: the server's own opponent for a player waiting alone in a quick race (`race_bot`).

It is a real player of the protocol, nothing more: one of the SDK's bots (`freecell_arena_client`, shipped in the
same wheel) connected to this server over loopback, saying hello as a bot and joining the room by its code like
anyone. So it plays through the very verbs a person's moves go through, is refused what they would be refused,
sits on the bots' ladder and boards (a race of one human and one bot rates nobody), and needs nothing of core.
It plays at a person's pace (`house_bot_moves_per_s`) with the greedy bot (one move of look-ahead: beatable), and
resigns after `MAX_MOVES`.

Each bot's identity is kept (its token, in memory) and reused for the next race once it is free, so a server
makes a few house-bot players rather than one per race. Where a bot may join is core's rule
(`core.competition.play_now.house_bot_room`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from freecell_arena.core.clock import Clock
from freecell_arena.core.competition.play_now import house_bot_room, quick_race_view
from freecell_arena.core.effects import Refusal
from freecell_arena.core.server_store import ServerStore
from freecell_arena.engine import VARIANTS
from freecell_arena.net.background import BackgroundTasks
from freecell_arena.net.throttled_log import ThrottledLog, one_line
from freecell_arena.protocol.errors import ErrorCode
from freecell_arena.protocol.rooms import QuickRacesMessage, QuickRacesRequest, RaceBotMessage, RaceBotRequest
from freecell_arena_client import BotRunner, Reconnect, RunConfig
from freecell_arena_client.bots.greedy import GreedyBot

log = logging.getLogger(__name__)
HOUSE_BOT_NAME = "House bot"
MAX_MOVES = 400
"""The greedy bot may go round in circles: it resigns after this many moves."""
STOP_WITHIN_S = 5.0


class HouseBots:
    def __init__(self, store: ServerStore, clock: Clock, room_of: Callable[[str], str | None],
                 server_url: Callable[[], str], *, after_s: float | None, moves_per_s: float) -> None:  # fmt: skip
        """`room_of`: the room a player sits in (core's word); `server_url`: this server's own websocket address
        on loopback; `after_s`: how long a player waits alone before the page offers the bot (None: no house
        bot)."""
        self.store = store
        self.clock = clock
        self.room_of = room_of
        self.server_url = server_url
        self.after_s = after_s
        self.moves_per_s = moves_per_s
        self._idle_tokens: list[str] = []
        self._coming: set[str] = set()
        """Rooms a bot is on its way to (a second press sends no second bot)."""
        self._tasks = BackgroundTasks()
        self.failures = ThrottledLog(log)

    async def quick_races(self, request: QuickRacesRequest, _requester: str | None) -> QuickRacesMessage:
        now = self.clock.now()
        races = []
        for variant in VARIANTS:
            code = await self.store.quick_room(variant)
            races.append(quick_race_view(variant, await self.store.room_by_code(code) if code else None, now))
        return QuickRacesMessage(id=request.id, races=races, bot_after_s=self.after_s)

    async def race_bot(self, request: RaceBotRequest, requester: str | None) -> RaceBotMessage:
        if self.after_s is None:
            raise Refusal(ErrorCode.invalid_message, "this server has no house bot")
        if requester is None:
            raise Refusal(ErrorCode.hello_required, "the house bot races a player: say hello first")
        code = self.room_of(requester)
        code = house_bot_room(await self.store.room_by_code(code) if code else None, requester)
        if code not in self._coming:
            self._coming.add(code)
            self._tasks.spawn(self._play(code))
        return RaceBotMessage(id=request.id, code=code, name=HOUSE_BOT_NAME)

    async def _play(self, code: str) -> None:
        token = self._idle_tokens.pop() if self._idle_tokens else None
        runner = BotRunner(GreedyBot(), RunConfig(
            server=self.server_url(), name=HOUSE_BOT_NAME, room=code, token=token, max_moves=MAX_MOVES,
            max_rate_per_s=self.moves_per_s, wait_for_race_over=False, start_timeout_s=120.0,
            reconnect=Reconnect(give_up_after_s=20.0),
        ))  # fmt: skip
        try:
            await runner.run()
        except Exception as error:  # the player races on alone (or against whoever joins); nothing to undo
            self.failures.warning("house bot", f"the house bot left room {code}: {one_line(error)}")
        finally:
            self._coming.discard(code)
            if runner.token is not None:
                self._idle_tokens.append(runner.token)

    async def close(self) -> None:
        """Shutdown: every house bot stops (its game ends as the server's shutdown ends it)."""
        await self._tasks.stop(STOP_WITHIN_S)
