"""The read-only requests of issue 23: the "Rating" boards, a player's page, daily streaks, a race's review.

Answered like the other queries (`net.queries`), over the websocket and HTTP GET alike; what the numbers mean
lives in core (`core.records.race_ratings`, `core.records.profiles`, `core.records.streaks`,
`core.records.review`); this module reads the store
and asks the par service. A review is refused with `race_not_over` until the race is finished: par is a whole
solution of the deal, and the deal itself stays secret (Cell Eleven) until then.
"""

from __future__ import annotations

from calendar import monthrange
from collections.abc import Callable
from dataclasses import replace
from datetime import date

from freecell_arena.core.clock import Clock
from freecell_arena.core.effects import Refusal
from freecell_arena.core.moderation.sanctions import Act, counted_days, public_notice
from freecell_arena.core.ports.records import PlayerRecord, StoredRoom
from freecell_arena.core.records import daily
from freecell_arena.core.records.leaderboard import daily_board
from freecell_arena.core.records.profiles import DailyDays, MonthFacts, no_games, player_variant, streak_message
from freecell_arena.core.records.race_ratings import rating_view
from freecell_arena.core.records.ranking import rank
from freecell_arena.core.records.ratings import Ladder, Rating
from freecell_arena.core.records.review import Par, ParStatus, par_replay, reviewed
from freecell_arena.core.records.share import Result, daily_text, race_text
from freecell_arena.core.records.streaks import streak
from freecell_arena.core.server_store import ServerStore
from freecell_arena.core.variant_request import known_variant
from freecell_arena.engine import VARIANTS
from freecell_arena.net.par_service import ParService
from freecell_arena.protocol.errors import ErrorCode
from freecell_arena.protocol.profiles import (
    PlayerMessage,
    PlayerRequest,
    RatingRowView,
    RatingsMessage,
    RatingsRequest,
    ReviewMessage,
    ReviewRequest,
    ReviewRow,
    ShareMessage,
    ShareRequest,
    StreakMessage,
    StreakRequest,
)
from freecell_arena.protocol.rooms import Standing
from freecell_arena.protocol.vocabulary import FINISHED

HISTORY_POINTS = 50
"""Rating changes per variant on a player's page (the chart's points)."""
AROUND_SPAN = 3
"""Rows above and below a player on a rating board."""
DAILY_REVIEW_ROWS = 50
"""The top of a closed day's board shown beside its par."""


REVIEW_PAR_WAIT_S = 5.0
"""How long a race's review waits for its par to be solved (about 10 s of solving on a quiet machine): longer and
an HTTP review would outlive the connection's handshake timeout (websockets' `open_timeout`, 10 s) and get no
answer at all. It says `unknown` instead; the solve goes on, and the review asked again has it."""

class PlayerQueries:
    def __init__(self, store: ServerStore, clock: Clock, pars: ParService, origin: Callable[[], str]) -> None:
        self.store = store
        self.clock = clock
        self.pars = pars
        self.origin = origin
        """The site's address for a shared link when the client names none (`public_url`, else localhost)."""

    async def ratings(self, request: RatingsRequest, _requester: str | None) -> RatingsMessage:
        variant = known_variant(request.variant)
        ladder = Ladder.BOTS if request.bots else Ladder.HUMANS
        reads = self.store.ratings
        top = await reads.top(variant.id, ladder, request.limit)
        around = await reads.around(variant.id, ladder, request.around, AROUND_SPAN) if request.around else []
        return RatingsMessage(
            id=request.id, variant=variant.id, bots=request.bots,
            top=[_row(row.position, row.player_id, row.name, row.rating) for row in top],
            around=[_row(row.position, row.player_id, row.name, row.rating) for row in around],
        )  # fmt: skip

    async def player(self, request: PlayerRequest, requester: str | None) -> PlayerMessage:
        player = await self._known_player(request.player_id or requester)
        player_id = player.player_id
        ladder = Ladder.BOTS if player.bot else Ladder.HUMANS
        stats = {row.variant: row for row in await self.store.profiles.variant_stats(player_id)}
        rated = await self.store.ratings.ratings_of(player_id, ladder, list(VARIANTS))
        today = daily.today(self.clock.now())
        held = await self.store.moderation.in_force(player_id)
        marked = any(sanction.kind is Act.MARK for sanction in held)
        variants = []
        for variant_id in sorted({*stats, *rated}):
            history = await self.store.ratings.history(player_id, variant_id, ladder, HISTORY_POINTS)
            days = await self.store.profiles.daily_days(player_id, variant_id)
            won = await self._counted(player_id, variant_id, days, marked)
            variants.append(player_variant(stats.get(variant_id) or no_games(variant_id), rated.get(variant_id),
                                           history, streak(won, today)))  # fmt: skip
        return PlayerMessage(id=request.id, player_id=player_id, name=player.display_name, bot=player.bot,
                             variants=variants, notice=public_notice(held))  # fmt: skip

    async def _counted(self, player_id: str, variant: str, days: DailyDays, marked: bool) -> frozenset[date]:
        """The won days a streak counts: none while the player is marked, never a void game's day."""
        if not days.won:
            return days.won
        return counted_days(days.won, await self.store.moderation.void_days(player_id, variant), marked)

    async def _marked(self, player_id: str) -> bool:
        """Whether a moderator marked the player as playing with help (their streaks stop counting)."""
        return any(sanction.kind is Act.MARK for sanction in await self.store.moderation.in_force(player_id))

    async def streak(self, request: StreakRequest, requester: str | None) -> StreakMessage:
        variant = known_variant(request.variant)
        player = await self._known_player(request.player_id or requester)
        player_id = player.player_id
        today = daily.today(self.clock.now())
        month = (today.year, today.month)
        if request.month is not None:
            month = (int(request.month[:4]), int(request.month[5:]))
            if date(*month, 1) > today:
                raise Refusal(ErrorCode.invalid_message, "that month has not begun")
        days: DailyDays = await self.store.profiles.daily_days(player_id, variant.id)
        counted = await self._counted(player_id, variant.id, days, await self._marked(player_id))
        days = DailyDays(won=counted, played=days.played)
        first = date(*month, 1)
        last = date(*month, monthrange(*month)[1])
        facts = MonthFacts(
            practice=await self.store.profiles.practice_days(player_id, variant.id, first, last),
            dealt=frozenset(deal.day for deal in await self.store.dailies.deals(variant.id, first, last)),
            created=player.created_at,
        )
        return streak_message(variant.id, player_id, days, today, month, facts, request.id)

    async def review(self, request: ReviewRequest, _requester: str | None) -> ReviewMessage:
        if request.code is None:
            return await self._daily_review(request)
        stored = await self.store.room_by_code(request.code.upper())
        if stored is None:
            raise Refusal(ErrorCode.unknown_room, f"there is no room {request.code!r}")
        if stored.status != FINISHED:
            raise Refusal(ErrorCode.race_not_over, "the review opens once the race is over (par is a solution)")
        room = stored.room
        if room.seed_sealed_until is not None and self.clock.now() < room.seed_sealed_until:
            raise Refusal(ErrorCode.race_not_over, "a cup's reviews open when the cup is over (its deals are secret)")
        ranked = await self._standings(stored)
        par = await self.pars.par_of(room.variant, room.seed, wait_s=REVIEW_PAR_WAIT_S)
        rows = reviewed([(row.player_id, row.name, row.outcome, row.moves, row.time_ms) for row in ranked], par)
        start_view, steps = par_replay(par)  # no solver line yet: the opening board alone, no steps
        return ReviewMessage(
            id=request.id, code=room.code, day=None, variant=room.variant, seed=room.seed, par_status=par.status.value,
            par=par.moves, line=list(par.line) if par.status is ParStatus.SOLVED else [], start_view=start_view,
            steps=steps,
            results=[ReviewRow(player_id=row.player_id, name=row.name, game_id=standing.game_id,
                               outcome=standing.outcome, moves=row.moves, time_ms=row.time_ms, over_par=row.over_par)
                     for row, standing in zip(rows, ranked, strict=True)],
        )  # fmt: skip

    async def _daily_review(self, request: ReviewRequest) -> ReviewMessage:
        """A closed daily beside its par: the top of the day's board, and the certified solution as a replay."""
        assert request.variant is not None and request.day is not None
        variant = known_variant(request.variant)
        deal = await self.store.dailies.deal(variant.id, request.day)
        if deal is None:
            raise Refusal(ErrorCode.unknown_daily, f"there is no {variant.name} daily for {request.day}")
        if not daily.is_closed(request.day, self.clock.now()):
            raise Refusal(ErrorCode.race_not_over, "a daily's review opens when its day closes (par is a solution)")
        page = await self.store.leaderboards.page(daily_board(variant.id, request.day, False), DAILY_REVIEW_ROWS)
        par = Par(variant.id, deal.seed, deal.rules_version, ParStatus.SOLVED, deal.solution)
        start_view, steps = par_replay(par)
        return ReviewMessage(
            id=request.id, code=None, day=request.day, variant=variant.id, seed=deal.seed, par_status="solved",
            par=deal.par, line=list(deal.solution), start_view=start_view, steps=steps,
            results=[ReviewRow(player_id=row.entry.player_id, name=row.entry.name, game_id=row.entry.game_id,
                               outcome="won", moves=row.entry.player_moves, time_ms=row.entry.time_ms,
                               over_par=row.entry.player_moves - deal.par) for row in page.rows],
        )  # fmt: skip

    async def share(self, request: ShareRequest, _requester: str | None) -> ShareMessage:
        stored = await self.store.game(request.game_id)
        if stored is None:
            raise Refusal(ErrorCode.unknown_game, f"there is no game {request.game_id!r}")
        if stored.result is None:
            raise Refusal(ErrorCode.game_not_running, "a game is shared once it is over")
        game, result = stored.game, stored.result
        variant = known_variant(game.variant)
        origin = (request.origin or self.origin()).rstrip("/")
        counts = Result(won=result.outcome == "won", moves=result.player_moves, time_ms=result.time_ms,
                        cards_home=result.cards_on_foundations, cards=variant.total_cards, rank=None, of=None)
        if game.daily_day is not None:
            deal = await self.store.dailies.deal(variant.id, game.daily_day)
            # the board the game counts on (a bot's, or a flagged win's, is the bots' one)
            mine = await self.store.leaderboards.around(game.board, game.player_id, 0, 0) if game.board else None
            place = (mine.rows[0].rank, mine.total) if mine and mine.rows else (None, None)
            days = await self.store.profiles.daily_days(game.player_id, variant.id)
            url = f"{origin}/#/daily/{variant.id}"
            text = daily_text(variant_name=variant.name, day=game.daily_day,
                              result=replace(counts, rank=place[0], of=place[1]), par=deal.par if deal else None,
                              streak=streak(days.won, daily.today(self.clock.now())).current, url=url,
                              practice=not game.ranked)  # fmt: skip
            return ShareMessage(id=request.id, game_id=game.game_id, text=text, url=url)
        room = await self.store.room(game.room_id) if game.room_id else None
        if room is None or room.status != FINISHED:
            raise Refusal(ErrorCode.race_not_over, "a race is shared once it is over")
        ranked = await self._standings(room)
        position = next((row.rank for row in ranked if row.player_id == game.player_id), None)
        par = await self.store.pars.get(variant.id, room.room.seed, game.rules_version)
        change = next((change.delta for change in await self.store.ratings.changes_of(room.room.room_id)
                       if change.player_id == game.player_id), None)  # fmt: skip
        url = f"{origin}/r/{room.room.code}"
        text = race_text(variant_name=variant.name, players=len(ranked), result=replace(counts, rank=position,
                         of=len(ranked)), par=par.moves if par else None, rating_change=change, url=url)  # fmt: skip
        return ShareMessage(id=request.id, game_id=game.game_id, text=text, url=url)

    async def _standings(self, stored: StoredRoom) -> list[Standing]:
        """A finished room's standings from its stored results, ranked as the room ranked them."""
        standings = []
        for game_id in stored.game_ids:
            game = await self.store.game(game_id)
            if game is None or game.result is None:
                continue
            player = await self.store.player(game.game.player_id)
            result = game.result
            standings.append(Standing(
                rank=0, player_id=game.game.player_id, name=player.display_name if player else game.game.player_id,
                game_id=game_id, outcome=result.outcome, moves=result.player_moves,
                single_card_moves=result.single_card_moves, cards_on_foundations=result.cards_on_foundations,
                time_ms=result.time_ms,
            ))  # fmt: skip
        ranking = str(stored.room.options.get("ranking", "moves"))
        return rank(standings, ranking, stored.started_at or stored.finished_at)  # by the rule of the race's start

    async def _known_player(self, player_id: str | None) -> PlayerRecord:
        if player_id is None:
            raise Refusal(ErrorCode.invalid_message, "whose? give `player_id`")
        player = await self.store.player(player_id)
        if player is None:
            raise Refusal(ErrorCode.unknown_player, f"there is no player {player_id!r}")
        return player


def _row(position: int, player_id: str, name: str, rating: Rating) -> RatingRowView:
    return RatingRowView(position=position, player_id=player_id, name=name, rating=rating_view(rating))
