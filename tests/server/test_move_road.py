"""A move's road (bench/move_road.py, issue 50): the modules one move frame runs code in, from its bytes arriving to
its reply written, and how often it goes back into a module it had already left. Counts, not timings: the same code
gives the same figures anywhere, so they are held here as ceilings.

Net's part is at its aim: the connection's task is the connection's own (no frame of net/app.py around it), the
replies go from the effect runner to the outbox and the socket (not back through the connection), and nothing of
moderation runs for a move, nor anything of the metrics (the group commit reports its transaction on the loop's
next turn, after the replies). Core goes down once: the game and its room read together, the player's game
taking the action with one call into the engine (`engine.turns.take_turn`), the reply built from its report, the
system clock read straight from C. The re-entries are at issue 50's aim (at most 15); the modules are one over it
(21 of at most 20: the store's five, core's clock for the game's elapsed time)."""

from __future__ import annotations

import re

from bench_runs import run_bench

NET_MODULES, NET_REENTRIES = 6, 4
"""Net's share of the road: the socket, the inbox, the connection, the rate limit, the effect runner and the outbox;
back into the socket, the inbox, the connection and the
runner once each (the reader's wait for the frame, and for the commit)."""
MODULES, REENTRIES = 21, 14
"""The whole road as this code runs it (64114e8's: 25 modules, 39 re-entries; 22 and 32 before `take_turn`, 22 and
15 before the clock and the commit's metrics left it). The
store's part: 5 modules, 6 re-entries (the group commit's task woken, its wait for company timed out, the SQLite
thread's answer, and the statements' table read twice); a submitter awaits the commit's own future, with no frame of
the group commit, the SQL store or the SQLite writer on its awaiting chain."""


def test_a_move_takes_the_straight_road_through_net() -> None:
    output = run_bench("move_road.py", "--road")
    figures = {layer: (int(modules), int(reentries))
               for layer, modules, reentries in re.findall(r"^(\w+): (\d+) modules, (\d+) re-entries$", output, re.M)}
    total = re.search(r"^modules: (\d+)  re-entries: (\d+)$", output, re.M)
    assert total is not None and figures, output
    net_modules, net_reentries = figures["net"]
    assert net_modules <= NET_MODULES and net_reentries <= NET_REENTRIES, output
    assert int(total[1]) <= MODULES and int(total[2]) <= REENTRIES, output
    road = re.findall(r"^\s+\d+ (\S+)$", output, re.M)
    assert road[0] == "net.game_socket", "the road begins where the bytes arrive"
    assert "net.app" not in road and "net.moderation" not in road, output
