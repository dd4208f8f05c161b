"""Playing the daily challenge in the arena: a game without a room, ranked only the first time.

- `play_daily` starts the player's game of today's deal; the clock starts now (the instant the deal is
  sent). The first attempt of a player at a day's deal is ranked (the database holds a unique index on
  ranked daily games per player, variant and day, so several processes agree); any later game of that deal
  is unranked, and so is every game of a player whose identity was made after that day's deal opened (a
  throwaway identity must not scout the deal for a second, ranked one). Asking again while the day's game
  still runs returns that game: leaving or disconnecting never restarts or stops the clock.
- A player in a room whose race is not over, or with another game running, is refused with a clear error;
  a player whose daily game runs cannot join a race as a player (a race would take over their game).
- When the day closes (24:00 UTC) every game of it still running ends as `timeout`, and its seed and every
  replay of it become public.

The deals themselves (`DailyRecord`) and whether a player already made a ranked attempt are loaded by the
adapter from the store before the request reaches core (`know_deal`, `know_attempt`); core never waits on
the store, and never on the solver: a deal that is not prepared is refused with `daily_not_ready`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Protocol

from freecell_arena.core.effects import Effect, Refusal
from freecell_arena.core.identity import new_ordered_id
from freecell_arena.core.live.changes import Draft
from freecell_arena.core.live.player_game import PlayerGame
from freecell_arena.core.live.room_messages import game_over_to_player
from freecell_arena.core.live.shared_state import SharedState
from freecell_arena.core.ports.records import DailyRecord
from freecell_arena.core.records import daily
from freecell_arena.core.records.leaderboard import daily_board
from freecell_arena.core.variant_request import known_variant
from freecell_arena.protocol.errors import ErrorCode
from freecell_arena.protocol.leaderboards import DailyStartedMessage, PlayDailyRequest
from freecell_arena.protocol.vocabulary import FINISHED


class DailyHost(Protocol):
    """What the daily challenges need from the rest of core besides the shared state (the lobby)."""

    def leave_finished_room(self, draft: Draft, player_id: str) -> Effect:
        """Leave a finished race's room before playing (refused in any other room)."""
        ...


def refuse_while_playing(state: SharedState, player_id: str) -> None:
    """Joining a race as a player would take the player away from a running daily game."""
    game = state.current_game(player_id)
    if game is not None and game.running and game.record.daily_day is not None:
        raise Refusal(
            ErrorCode.game_in_progress,
            f"your daily {game.variant.name} game is still running (its clock does not stop): "
            "finish or resign it first",
        )


class DailyChallenges:
    def __init__(self, state: SharedState, host: DailyHost) -> None:
        self.shared = state
        self.host = host
        self.deals: dict[tuple[str, date], DailyRecord] = {}
        self.attempted: set[tuple[str, str, date]] = set()
        self.running: dict[str, date] = {}
        self._closing: set[str] = set()
        """Games whose close (their day's end) is being written: not closed twice."""
        self.offered: set[str] | None = None
        """The variants with a daily challenge (None: every variant); set by the adapter from its settings."""
        self._next_close: datetime | None = None

    # ------------------------------------------------------------------ what the adapter loads

    def today(self) -> date:
        return daily.today(self.shared.clock.now())

    def know_deal(self, deal: DailyRecord) -> None:
        self.deals[(deal.variant, deal.day)] = deal

    def know_attempt(self, player_id: str, variant_id: str, day: date) -> None:
        self.attempted.add((player_id, variant_id, day))

    def may_be_ranked(self, player_id: str, variant_id: str, day: date) -> bool:
        """Whether this player's next game of the day could be ranked, so the adapter must ask the store for an
        earlier ranked attempt (another process's, or before a restart). Not when one is known here, nor for an
        identity made after the deal opened (it plays unranked anyway): at the day's opening most arrivals are
        one of these, and the read is most of what starting the daily costs."""
        state = self.shared.players.get(player_id)
        return (
            state is not None
            and (player_id, variant_id, day) not in self.attempted
            and daily.rankable_for(state.record.created_at, day)
        )

    def track(self, game: PlayerGame) -> None:
        """A running daily game (started here or restored): it ends when its day closes."""
        day = game.record.daily_day
        if day is None or not game.running:
            return
        self.running[game.game_id] = day
        close = daily.closes_at(day)
        if self._next_close is None or close < self._next_close:
            self._next_close = close
        if game.record.ranked:
            self.know_attempt(game.player_id, game.variant.id, day)

    # ------------------------------------------------------------------ requests

    def play(self, player_id: str, request: PlayDailyRequest) -> Effect:
        shared = self.shared
        variant = known_variant(request.variant)
        if self.offered is not None and variant.id not in self.offered:
            raise Refusal(ErrorCode.unknown_daily, f"{variant.name} has no daily challenge on this server")
        now = shared.clock.now()
        day = daily.today(now)
        deal = self.deals.get((variant.id, day))
        if deal is None:
            raise Refusal(
                ErrorCode.daily_not_ready, f"today's {variant.name} deal ({day}) is not prepared yet; try again soon"
            )
        state = shared.players[player_id]
        room = shared.room_of_player(player_id)
        if room is not None and room.status != FINISHED:
            raise Refusal(
                ErrorCode.already_in_room, f"you are in room {room.code} ({room.status}): leave it to play the daily"
            )
        current = shared.current_game(player_id)
        if current is not None and current.running:
            if current.record.daily_day == day and current.variant.id == variant.id:
                return Effect(replies=[self._started(request, current, deal, now)])
            raise Refusal(ErrorCode.game_in_progress, f"your {current.variant.name} game is still running: "
                          "finish or resign it first")
        draft = Draft(shared)
        leaving = self.host.leave_finished_room(draft, player_id)  # a finished race's room is left, as create_room
        # One ranked attempt per person, not per fresh token: an identity made after the day's deal opened
        # could scout the deal for a second one, so it plays the day unranked (docs/leaderboards.md).
        ranked = self.may_be_ranked(player_id, variant.id, day)
        game = PlayerGame.start(
            game_id=new_ordered_id("g", now),
            room_id=None,
            room_code=None,
            player_id=player_id,
            name=state.record.display_name,
            variant=variant,
            seed=deal.seed,
            autoplay=True,
            undo_allowed=variant.undo_by_default,
            ranked=ranked,
            started_at=now,
            board=daily_board(variant.id, day, state.record.bot),
            daily_day=day,
        )
        draft.deal(game)
        draft.sit(player_id, game_id=game.game_id)
        draft.also(_Started(self, game))
        started = Effect(records=[game.record], replies=[self._started(request, game, deal, now)])
        return draft.seal(leaving.merge(started))

    def _started(self, request: PlayDailyRequest, game: PlayerGame, deal: DailyRecord, now: datetime) -> (
        DailyStartedMessage
    ):
        day = deal.day
        made = self.shared.players[game.player_id].record.created_at
        return DailyStartedMessage(
            id=request.id,
            variant=deal.variant,
            day=day,
            ranked=game.record.ranked,
            par=deal.par,
            closes_at=daily.closes_at(day),
            game=game.view(now, seed_public=daily.is_closed(day, now)),
            unranked_reason=daily.unranked_reason(game.record.ranked, made, day),
        )

    # ------------------------------------------------------------------ the day's close

    def tick(self, now: datetime) -> list[Effect]:
        """End the games of closed days as `timeout` at the closing instant (a game whose end is being written is
        left for the next tick; one whose end was refused is ended again then)."""
        if self._next_close is None or now < self._next_close:
            return []
        effects = []
        for game_id, day in list(self.running.items()):
            game = self.shared.games.get(game_id)
            if game is None or not game.running:
                del self.running[game_id]
                continue
            if daily.is_closed(day, now) and game_id not in self._closing:
                effects.append(self._close(game, day))
        self._next_close = min((daily.closes_at(day) for day in self.running.values()), default=None)
        return effects

    def _close(self, game: PlayerGame, day: date) -> Effect:
        finish = game.ending("timeout", daily.closes_at(day))
        draft = Draft(self.shared)
        draft.end(game, finish)
        draft.also(_Closed(self, game.game_id))
        self._closing.add(game.game_id)
        effect = Effect(records=[game.result_record(finish)], publications=[game_over_to_player(game, finish)])
        return draft.seal(effect)


@dataclass(frozen=True, slots=True)
class _Started:
    """A daily game, once stored: tracked until its day closes (and its ranked attempt known)."""

    dailies: DailyChallenges
    game: PlayerGame

    def adopt(self) -> None:
        self.dailies.track(self.game)

    def refused(self) -> None:
        pass


@dataclass(frozen=True, slots=True)
class _Closed:
    """A daily game ended by its day's close: no longer tracked once stored; closed again next tick if refused."""

    dailies: DailyChallenges
    game_id: str

    def adopt(self) -> None:
        self.dailies._closing.discard(self.game_id)
        self.dailies.running.pop(self.game_id, None)

    def refused(self) -> None:
        self.dailies._closing.discard(self.game_id)
