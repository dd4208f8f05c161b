/**
 * A real FreeCell Arena server for the tests: `python -m freecell_arena serve` on a free loopback port over a
 * fresh SQLite file, with the settings given (FREECELL_ARENA_* environment variables). `PYTHON` names the
 * interpreter that has the server installed (default python3). Killed by `stop()`, and when the test process exits.
 * A restart is another server on the same `port` and `folder` (the same database) once the first has exited
 * (`signal('SIGTERM')`: it drains and closes every connection with 1012; `signal('SIGKILL')`: cut, 1006).
 */

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const START_TIMEOUT_MS = 60_000;
const LOOPBACK = {
  FREECELL_ARENA_MAX_CONNECTIONS_PER_ADDRESS: '100000', // every test client is 127.0.0.1
  FREECELL_ARENA_NEW_PLAYERS_PER_MINUTE: '1000000000',
  FREECELL_ARENA_DAILY_PREPARE_INTERVAL_S: '0',
  FREECELL_ARENA_PAR_AT_RACE_END: 'false',
};

export async function startServer(settings = {}, { port = 0, folder = null } = {}) {
  const owned = folder === null; // a folder made here is removed by stop(); a restart's belongs to the first server
  folder ??= mkdtempSync(join(tmpdir(), 'freecell-arena-js-'));
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('FREECELL_ARENA_')));
  const child = spawn(process.env.PYTHON ?? 'python3', [
    '-m', 'freecell_arena', 'serve', '--port', String(port), '--log-level', 'WARNING',
    '--database-url', `sqlite+aiosqlite:///${join(folder, 'arena.db')}`,
  ], { env: { ...env, ...LOOPBACK, ...settings }, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  const running = () => child.exitCode === null && child.signalCode === null;
  const kill = () => running() && child.kill('SIGKILL');
  process.on('exit', kill);
  let stderr = '';
  child.stderr.on('data', (chunk) => { stderr = (stderr + chunk).slice(-4000); });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the server did not start in time: ${stderr}`)), START_TIMEOUT_MS);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const found = /listening on (ws:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
    child.on('exit', (code) => reject(new Error(`the server exited (${code}): ${stderr}`)));
  });
  return {
    url,
    port: Number(new URL(url).port),
    folder,
    /** Sends `signal` and resolves with how the process ended (its exit code, or the signal that ended it). */
    async signal(signal) {
      if (running()) child.kill(signal);
      return exited;
    },
    async stop() {
      process.off('exit', kill);
      kill();
      await exited;
      if (owned) rmSync(folder, { recursive: true, force: true });
    },
  };
}
