// A bot in TypeScript over the package's declarations: one race alone in a room of its own, each move typed by the
// protocol's schema (types/protocol.d.ts). CI type-checks it with `tsc --noEmit` (tsconfig.json beside the package),
// in the checkout and again where the packed tarball is installed. Compile it (tsc) and run it with Node 20+:
//   node typed-bot.js ws://127.0.0.1:8765/
import { ArenaError, Connection } from 'freecell-arena-client';
import { applyChanges, candidates } from 'freecell-arena-client/bot';
import { readGame } from 'freecell-arena-client/game-text';
import type { CreateRoomRequest, MoveRequest, PlayerView, ServerToClient } from 'freecell-arena-client/protocol';

export async function playAlone(url: string, variant: CreateRoomRequest['variant'] = 'freecell', seed = '1'): Promise<string> {
  const connection = await Connection.open(url);
  try {
    const welcome = await connection.hello('typed-bot');
    console.log(`hello ${welcome.name}: protocol ${welcome.protocol}, ${welcome.limits.rate_per_s} requests/s`);
    const create: CreateRoomRequest = { type: 'create_room', variant, seed, options: { countdown_s: 0 } };
    const room = await connection.request<'room'>(create);
    await connection.request({ type: 'start_race' });
    let frame: ServerToClient = await connection.frame(30_000);
    while (frame.type !== 'race_started' || frame.code !== room.room.code) frame = await connection.frame(30_000);
    let view: PlayerView = frame.game.view;
    const tried = new Set<string>();
    for (;;) {
      const move = candidates(view).find((candidate) => !tried.has(JSON.stringify([view.tableau, candidate])));
      if (move === undefined) return (await connection.request<'game_over'>({ type: 'resign' })).outcome;
      tried.add(JSON.stringify([view.tableau, move]));
      const request: MoveRequest = { type: 'move', move };
      try {
        const accepted = await connection.request<'move_accepted'>(request);
        view = applyChanges(view, accepted.changes);
        if (accepted.status !== 'playing') return accepted.status;
      } catch (error) {
        if (!(error instanceof ArenaError) || error.code !== 'illegal_move') throw error;
      }
    }
  } finally {
    connection.close();
  }
}

/** A finished game's moves, from the game text a `replay` reply carries (docs/notation.md, "Game text"). */
export async function movesOf(connection: Connection, gameId: string): Promise<string[]> {
  const replay = await connection.request<'replay'>({ type: 'get_replay', game_id: gameId });
  return readGame(replay.game_text).moves;
}

const url = process.argv[2];
if (url !== undefined) console.log(await playAlone(url));
