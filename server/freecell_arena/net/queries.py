"""The read-only requests, answered the same way over the websocket and over HTTP GET.

One function per request model turns it into the reply model (or a `Refusal`): the websocket sends the reply
as a frame, `freecell_arena.net.http_api` as the body of a JSON response. Nothing here changes state or goes
through core's arena; every read is an index lookup or range (see `freecell_arena.store.leaderboards`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from freecell_arena.core.clock import Clock
from freecell_arena.core.effects import Refusal
from freecell_arena.core.ports.reads import BoardPage, HistoryRow, RaceFacts
from freecell_arena.core.records import daily
from freecell_arena.core.records.leaderboard import CursorError, daily_board, deal_board, decode_cursor, encode_cursor
from freecell_arena.core.records.public_games import open_to_its_player
from freecell_arena.core.records.race_ratings import place_in_race
from freecell_arena.core.server_store import ServerStore
from freecell_arena.core.variant_request import known_variant
from freecell_arena.engine import variant_by_id
from freecell_arena.net.daily_service import DailyService
from freecell_arena.net.hints import HintService
from freecell_arena.net.house_bots import HouseBots
from freecell_arena.net.open_data import PlayerGames
from freecell_arena.net.par_service import ParService
from freecell_arena.net.player_queries import PlayerQueries
from freecell_arena.protocol.errors import ErrorCode
from freecell_arena.protocol.leaderboards import (
    DailyMessage,
    DailyRequest,
    HistoryGame,
    HistoryMessage,
    HistoryRequest,
    LeaderboardMessage,
    LeaderboardRequest,
    LeaderboardRow,
    SeasonMessage,
    SeasonRequest,
    SeasonStanding,
)
from freecell_arena.protocol.play import HintRequest
from freecell_arena.protocol.profiles import PlayerRequest, RatingsRequest, ReviewRequest, ShareRequest, StreakRequest
from freecell_arena.protocol.rooms import QuickRacesRequest, RaceBotRequest
from freecell_arena.protocol.tournaments import TournamentRequest, TournamentsRequest
from freecell_arena.protocol.vocabulary import FINISHED
from freecell_arena.protocol.wire import Message

QUERY_TYPES = (LeaderboardRequest, SeasonRequest, HistoryRequest, DailyRequest, RatingsRequest, PlayerRequest,
               StreakRequest, ReviewRequest, ShareRequest, TournamentsRequest, TournamentRequest, HintRequest,
               QuickRacesRequest, RaceBotRequest)  # fmt: skip
"""Answered here, outside core: reads of the store (`race_bot` too, which sends a client of the protocol to the
requester's room: the room's change is that client's `join_room`, through core like anyone's)."""
BOARD_CURSOR = "board"
SEASON_CURSOR = "season"
HISTORY_CURSOR = "history"


class Answerer(Protocol):
    async def answer(self, request: Message, requester: str | None) -> Message: ...


class Queries:
    def __init__(self, store: ServerStore, clock: Clock, dailies: DailyService, pars: ParService,
                 origin: Callable[[], str], house_bots: HouseBots) -> None:  # fmt: skip
        self.store = store
        self.clock = clock
        self.dailies = dailies
        self.players = PlayerQueries(store, clock, pars, origin)
        self.games = PlayerGames(store, clock)
        """A player's games as open data (`GET /api/players/{player_id}/games`, NDJSON: not a websocket query)."""
        self.tournaments: Answerer | None = None
        """The tournaments' queries (`net.tournaments.TournamentService`), set once the server has built it."""
        self.hints = HintService(store)
        self.house_bots = house_bots

    async def close(self) -> None:
        """Shutdown: the hint worker and the house bots stop."""
        await self.hints.close()
        await self.house_bots.close()

    async def answer(self, request: Message, requester: str | None = None) -> Message:
        """The reply to a query; raises `Refusal` for bad parameters or unknown things."""
        if isinstance(request, (TournamentsRequest, TournamentRequest)) and self.tournaments is not None:
            return await self.tournaments.answer(request, requester)
        handlers: dict[type, Callable[[Any, str | None], Awaitable[Message]]] = {
            LeaderboardRequest: self.leaderboard,
            SeasonRequest: self.season,
            HistoryRequest: self.history,
            DailyRequest: self.daily,
            RatingsRequest: self.players.ratings,
            PlayerRequest: self.players.player,
            StreakRequest: self.players.streak,
            ReviewRequest: self.players.review,
            ShareRequest: self.players.share,
            HintRequest: self.hints.answer,
            QuickRacesRequest: self.house_bots.quick_races,
            RaceBotRequest: self.house_bots.race_bot,
        }
        return await handlers[type(request)](request, requester)

    # ------------------------------------------------------------------ boards

    async def leaderboard(self, request: LeaderboardRequest, _requester: str | None) -> LeaderboardMessage:
        variant = known_variant(request.variant)
        if request.cursor is not None and request.around is not None:
            raise Refusal(ErrorCode.invalid_message, "give `cursor` (next page) or `around` (a player), not both")
        par: int | None = None
        now = self.clock.now()
        if request.board == "daily":
            if request.seed is not None:
                raise Refusal(ErrorCode.invalid_message, "a daily board is named by its day, not a seed")
            day = request.day or daily.today(now)
            deal = await self.dailies.deal(variant.id, day)
            if deal is None:
                raise Refusal(ErrorCode.unknown_daily, f"there is no {variant.name} daily for {day}")
            board = daily_board(variant.id, day, request.bots)
            par, seed = deal.par, deal.seed if daily.is_closed(day, now) else None
        else:
            if request.seed is None:
                raise Refusal(ErrorCode.invalid_message, "a deal board needs the deal's `seed`")
            if request.day is not None:
                raise Refusal(ErrorCode.invalid_message, "a deal board is named by its seed, not a day")
            low, high = variant.seed_range
            if not low <= request.seed <= high:
                raise Refusal(ErrorCode.bad_seed, f"{variant.name} seeds run from {low} to {high}")
            day, seed = None, request.seed
            board = deal_board(variant.id, request.seed, request.bots)
        dealt = seed if request.board == "deal" else None
        try:
            page = await self._board_page(board, request)
        except Refusal as refusal:
            if dealt is not None and refusal.code == ErrorCode.not_on_board:
                await self._refuse_undealt(variant.id, variant.name, dealt)
            raise
        if dealt is not None and page.total == 0:
            await self._refuse_undealt(variant.id, variant.name, dealt)
        claimed = await self.store.accounts.claimed_names_of({row.entry.player_id for row in page.rows})
        return LeaderboardMessage(
            id=request.id,
            variant=variant.id,
            board=request.board,
            day=day,
            seed=seed,
            bots=request.bots,
            par=par,
            total=page.total,
            entries=[
                LeaderboardRow(
                    rank=row.rank,
                    player_id=row.entry.player_id,
                    name=row.entry.name,
                    player_moves=row.entry.player_moves,
                    time_ms=row.entry.time_ms,
                    finished_at=row.entry.finished_at,
                    game_id=row.entry.game_id,
                    claimed=row.entry.player_id in claimed,
                )
                for row in page.rows
            ],
            next_cursor=_board_cursor(page),
        )

    async def _refuse_undealt(self, variant_id: str, variant_name: str, seed: int) -> None:
        """An empty deal board of a seed no ranked game was ever dealt from is no board at all: say so (a seed
        rounded on its way, as a JSON number through JavaScript, would otherwise look like a deal nobody won)."""
        boards = [deal_board(variant_id, seed, bots) for bots in (False, True)]
        if not await self.store.leaderboards.dealt(boards):
            raise Refusal(
                ErrorCode.unknown_seed,
                f"no ranked {variant_name} game was ever dealt from seed {seed}: check the number",
            )

    async def _board_page(self, board: str, request: LeaderboardRequest) -> BoardPage:
        reads = self.store.leaderboards
        if request.around is not None:
            above = (request.limit - 1) // 2
            page = await reads.around(board, request.around, above, request.limit - 1 - above)
            if page is None:
                raise Refusal(ErrorCode.not_on_board, f"player {request.around!r} has no entry on this board")
            return page
        after = None
        if request.cursor is not None:
            entry_score, finished_at, player_id = _decode(BOARD_CURSOR, request.cursor, (int, str, str))
            after = (entry_score, _instant(finished_at), player_id)
        return await reads.page(board, request.limit, after)

    # ------------------------------------------------------------------ seasons

    async def season(self, request: SeasonRequest, _requester: str | None) -> SeasonMessage:
        variant = known_variant(request.variant)
        if request.cursor is not None and request.around is not None:
            raise Refusal(ErrorCode.invalid_message, "give `cursor` (next page) or `around` (a player), not both")
        after = _decode(SEASON_CURSOR, request.cursor, (int,))[0] if request.cursor is not None else 0
        page = await self.store.seasons.page(
            variant.id, request.bots, request.days, request.limit, after=after, around=request.around
        )
        if page is None:
            raise Refusal(ErrorCode.not_on_board, f"player {request.around!r} is not in this season table")
        claimed = await self.store.accounts.claimed_names_of({row.player_id for row in page.rows})
        return SeasonMessage(
            id=request.id,
            variant=variant.id,
            days=request.days,
            bots=request.bots,
            through=page.through,
            total=page.total,
            standings=[
                SeasonStanding(
                    rank=row.rank,
                    player_id=row.player_id,
                    name=row.name,
                    wins=row.wins,
                    moves_over_par=row.moves_over_par,
                    average_rank=round(row.average_rank, 3),
                    claimed=row.player_id in claimed,
                )
                for row in page.rows
            ],
            next_cursor=encode_cursor(SEASON_CURSOR, [page.rows[-1].position]) if page.more else None,
        )

    # ------------------------------------------------------------------ history

    async def history(self, request: HistoryRequest, requester: str | None) -> HistoryMessage:
        player_id = request.player_id or requester
        if player_id is None:
            raise Refusal(ErrorCode.invalid_message, "whose history? give `player_id`")
        player = await self.store.player(player_id)
        if player is None:
            raise Refusal(ErrorCode.unknown_player, f"there is no player {player_id!r}")
        before = None
        if request.cursor is not None:
            finished_at, game_id = _decode(HISTORY_CURSOR, request.cursor, (str, str))
            before = (_instant(finished_at), game_id)
        rows, more = await self.store.history.page(player_id, request.limit, before)
        now = self.clock.now()
        finished = [row.room_id for row in rows if row.room_id is not None and row.room_status == FINISHED]
        facts = await self.store.history.race_facts(player_id, finished)
        last = rows[-1] if rows else None
        return HistoryMessage(
            id=request.id,
            player_id=player.player_id,
            name=player.display_name,
            bot=player.bot,
            claimed=await self.store.accounts.claimed_name(player.player_id) is not None,
            games=[_history_game(row, now, facts, player_id) for row in rows],
            next_cursor=encode_cursor(HISTORY_CURSOR, [last.finished_at.isoformat(), last.game_id])
            if more and last
            else None,
        )

    # ------------------------------------------------------------------ daily deals

    async def daily(self, request: DailyRequest, _requester: str | None) -> DailyMessage:
        variant = known_variant(request.variant)
        now = self.clock.now()
        if request.day is not None:
            found = await self.dailies.deal(variant.id, request.day)
            if found is None:
                raise Refusal(ErrorCode.unknown_daily, f"there is no {variant.name} daily for {request.day}")
            deals = [found]
        else:
            today = daily.today(now)
            deals = await self.store.dailies.deals(variant.id, today - timedelta(days=1), today + timedelta(days=1))
        return DailyMessage(id=request.id, variant=variant.id, deals=[daily.public_view(deal, now) for deal in deals])


def _decode(kind: str, token: str, types: tuple[type, ...]) -> list[Any]:
    try:
        return decode_cursor(kind, token, types)
    except CursorError as error:
        raise Refusal(ErrorCode.bad_cursor, str(error)) from None


def _instant(text: str) -> datetime:
    try:
        instant = datetime.fromisoformat(text)
    except ValueError:
        raise Refusal(ErrorCode.bad_cursor, "the cursor is damaged") from None
    if instant.tzinfo is None:
        raise Refusal(ErrorCode.bad_cursor, "the cursor is damaged")
    return instant.astimezone(UTC)


def _board_cursor(page: BoardPage) -> str | None:
    if not page.more or not page.rows:
        return None
    last = page.rows[-1].entry
    return encode_cursor(BOARD_CURSOR, [last.score, last.finished_at.isoformat(), last.player_id])


def _seed_is_public(row: HistoryRow, now: datetime) -> bool:
    """Secrets in a history: a daily's seed until its day closes; a Cell Eleven race's until it is over; a cup
    heat's until the cup is over."""
    return open_to_its_player(row.daily_day, row.seed_sealed_until, row.room_status == "finished", now,
                              face_down=variant_by_id(row.variant).face_down)  # fmt: skip


def _history_game(row: HistoryRow, now: datetime, facts: RaceFacts, player_id: str) -> HistoryGame:
    kind = None if not row.ranked else ("daily" if row.daily_day else "deal")
    results = facts.results.get(row.room_id or "")
    place = None
    if results and row.race_started_at is not None:
        ranking = str((row.room_options or {}).get("ranking", "moves"))
        place = place_in_race(results, ranking, row.race_started_at, player_id)
    return HistoryGame(
        game_id=row.game_id,
        variant=row.variant,
        board=kind,
        day=row.daily_day,
        seed=row.seed if _seed_is_public(row, now) else None,
        ranked=row.ranked,
        outcome=row.outcome,
        player_moves=row.player_moves,
        single_card_moves=row.single_card_moves,
        cards_on_foundations=row.cards_on_foundations,
        time_ms=row.time_ms,
        started_at=row.started_at,
        finished_at=row.finished_at,
        room_code=row.room_code,
        place=place[0] if place else None,
        players=place[1] if place else None,
        rating_delta=facts.rating_deltas.get(row.room_id or ""),
    )

