"""`freecell-arena-bot`: run a reference bot (or your own, `--bot module:Class`) in one race.

Exit codes: 0 the race ended (whatever the bot's result), 1 the server refused something or the bot failed,
2 bad usage, 3 the server could not be reached (or was lost for good), 130 interrupted.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import logging
import os
import sys
from pathlib import Path

from websockets.exceptions import InvalidURI

from freecell_arena.engine import VARIANTS
from freecell_arena.protocol.rooms import RoomOptions, RoomView
from freecell_arena_client.bot import Bot
from freecell_arena_client.bots import BOTS, SolverBot
from freecell_arena_client.errors import ArenaClientError, ConnectionLost
from freecell_arena_client.runner import BotRunner, NewRoom, RaceResult, Reconnect, RunConfig
from freecell_arena_client.tournament import WAITING, TournamentResult, TournamentRunner

PROG = "freecell-arena-bot"
EXIT_OK, EXIT_REFUSED, EXIT_USAGE, EXIT_UNREACHABLE, EXIT_INTERRUPTED = 0, 1, 2, 3, 130


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Play one FreeCell Arena race with a bot (join a room by code, or create one and host it), "
        "or play today's daily deal.",
        epilog="examples:\n"
        f"  {PROG} --server ws://127.0.0.1:8765 --create freecell --deal 1 --players 2 --bot solver\n"
        f"  {PROG} --server ws://127.0.0.1:8765 --room ABCD2345 --bot greedy\n"
        f"  {PROG} --server ws://127.0.0.1:8765 --daily freecell --bot solver\n"
        "exit codes: 0 race over, 1 refused by the server or the bot failed, 2 usage, 3 server unreachable",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--server", default="ws://127.0.0.1:8765/", help="server URL (default %(default)s)")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--room", metavar="CODE", help="join the room with this code")
    where.add_argument("--create", metavar="VARIANT", choices=sorted(VARIANTS), help="create a room of this variant "
                       f"and host it ({', '.join(sorted(VARIANTS))})")
    where.add_argument("--daily", metavar="VARIANT", choices=sorted(VARIANTS),
                       help="play today's daily deal of this variant (the first attempt is ranked)")
    where.add_argument("--tournament", metavar="ID", help="enter this tournament and play every race the server "
                       "forms for the bot until it is over")
    parser.add_argument("--link-code", metavar="CODE", help="a private tournament's link code (with --tournament)")
    parser.add_argument("--bot", default="greedy", metavar="NAME",
                        help=f"{', '.join(BOTS)}, or module:Class of your own Bot (default %(default)s)")
    parser.add_argument("--name", help="display name (default: the bot's name)")
    parser.add_argument("--token-file", type=Path,
                        help="a file holding a bot account's token (fcb_..., from the account page: the server then "
                        "marks this player a bot, on the bots' boards), or where to keep a new player's token to "
                        "resume after a restart")
    parser.add_argument("--max-moves", type=int, metavar="N", help="resign after N moves")
    parser.add_argument("--rate", type=float, default=25.0, metavar="PER_S",
                        help="most requests per second (default %(default)s; 0 = unpaced)")
    parser.add_argument("--solver-budget", type=float, default=10.0, metavar="S",
                        help="solver bot: seconds per solve (default %(default)s)")
    parser.add_argument("--give-up-after", type=float, default=60.0, metavar="S",
                        help="stop reconnecting after S seconds of failed attempts (default %(default)s)")
    parser.add_argument("--start-timeout", type=float, default=300.0, metavar="S",
                        help="fail if the race has not started after S seconds (default %(default)s)")
    parser.add_argument("--no-wait", action="store_true", help="exit when the bot's game ends, not the race")
    parser.add_argument("-v", "--verbose", action="store_true", help="log what the runner does")
    room = parser.add_argument_group("room options (with --create)")
    deal = room.add_mutually_exclusive_group()
    deal.add_argument("--seed", type=int, help="the deal's seed (default: a fresh random one)")
    deal.add_argument("--deal", type=int, help="a deal number (Microsoft numbering for freecell)")
    room.add_argument("--players", type=int, default=1, metavar="N",
                      help="start once N players (this bot included) have joined (default %(default)s)")
    room.add_argument("--time-limit", type=int, metavar="S", help="the race ends after S seconds")
    room.add_argument("--countdown", type=float, default=3.0, metavar="S", help="countdown (default %(default)s)")
    room.add_argument("--no-autoplay", action="store_true", help="no automatic moves to the foundations")
    room.add_argument("--ranking", choices=("moves", "speed"), default="moves", help="how winners are ordered")
    return parser


def load_bot(spec: str, solver_budget: float) -> Bot:
    """A reference bot by name, or `module:Class` (a `Bot` subclass made with no arguments)."""
    if spec == "solver":
        return SolverBot(budget_s=solver_budget)
    if spec in BOTS:
        return BOTS[spec]()
    module_name, _, class_name = spec.partition(":")
    if not class_name:
        raise ValueError(f"unknown bot {spec!r}: use one of {', '.join(BOTS)} or module:Class")
    if os.getcwd() not in sys.path:  # `--bot my_bot:MyBot` finds my_bot.py in the current directory
        sys.path.insert(0, os.getcwd())
    try:
        factory = getattr(importlib.import_module(module_name), class_name)
    except (ImportError, AttributeError) as error:
        raise ValueError(f"cannot load bot {spec!r}: {error}") from error
    bot: object = factory()
    if not isinstance(bot, Bot):
        raise ValueError(f"{spec} is not a freecell_arena_client.Bot")
    return bot


def config_from(args: argparse.Namespace, bot: Bot) -> RunConfig:
    if not args.server.startswith(("ws://", "wss://")):
        raise ValueError(f"--server must be a ws:// or wss:// URL, not {args.server!r}")
    create = None
    if args.create:
        options = RoomOptions(
            autoplay=not args.no_autoplay,
            time_limit_s=args.time_limit,
            countdown_s=args.countdown,
            ranking=args.ranking,
            max_players=max(16, args.players),
        )
        create = NewRoom(args.create, seed=args.seed, deal=args.deal, options=options)
    elif args.seed is not None or args.deal is not None or args.time_limit is not None:
        raise ValueError("--seed, --deal and --time-limit are room options: they go with --create")
    return RunConfig(
        server=args.server,
        name=args.name or bot.name,
        room=args.room or (WAITING if args.tournament else None),
        create=create,
        daily=args.daily,
        players=args.players,
        start_timeout_s=args.start_timeout,
        token_file=args.token_file,
        max_moves=args.max_moves,
        max_rate_per_s=args.rate or None,
        wait_for_race_over=not args.no_wait,
        reconnect=Reconnect(give_up_after_s=args.give_up_after),
    )


def announce(room: RoomView) -> None:
    print(f"{PROG}: room {room.code} ({room.variant}); others join with --room {room.code}", flush=True)


def report(result: RaceResult) -> None:
    seconds = f", {result.time_ms / 1000:.1f} s" if result.time_ms is not None else ""
    print(f"{PROG}: {result.outcome or 'no game'} after {result.player_moves} moves{seconds}", flush=True)
    if result.daily is not None:
        ranked = "ranked" if result.daily.ranked else "unranked (not the first attempt)"
        print(f"  daily {result.daily.variant} {result.daily.day}: par {result.daily.par}, {ranked}", flush=True)
    for row in result.standings or ():
        mark = " (this bot)" if row.player_id == result.player_id else ""
        print(f"  {row.rank:>2}. {row.name:<20} {row.outcome:<9} {row.moves:>5} moves "
              f"{row.cards_on_foundations:>4} cards {row.time_ms / 1000:>8.1f} s{mark}", flush=True)


def report_tournament(result: TournamentResult, player_id: str | None) -> None:
    tournament = result.tournament
    print(f"{PROG}: {tournament.tournament.name} is over: {len(result.races)} races played", flush=True)
    for row in tournament.standings[:10]:
        mark = " (this bot)" if row.player_id == player_id else ""
        print(f"  {row.rank:>2}. {row.name:<20} {row.points:>4} points {row.solved:>3} solved{mark}", flush=True)
    if tournament.me is not None and tournament.me.rank > 10:
        print(f"  {tournament.me.rank:>2}. {tournament.me.name:<20} {tournament.me.points:>4} points (this bot)")


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        bot = load_bot(args.bot, args.solver_budget)
        config = config_from(args, bot)
    except ValueError as error:
        parser.print_usage(sys.stderr)
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    try:
        if args.tournament:
            runner = TournamentRunner(bot, config, args.tournament, link_code=args.link_code)
            report_tournament(asyncio.run(runner.run_tournament()), runner.player_id)
            return EXIT_OK
        result = asyncio.run(BotRunner(bot, config, on_room=announce).run())
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except InvalidURI as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except ConnectionLost as error:
        print(f"{PROG}: {error}", file=sys.stderr)
        return EXIT_UNREACHABLE
    except ArenaClientError as error:
        print(f"{PROG}: {error}", file=sys.stderr)
        return EXIT_REFUSED
    report(result)
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
