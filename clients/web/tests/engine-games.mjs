// Real games from the Python engine (tests/engine_fixtures.py), shared by the node tests.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('./engine_fixtures.py', import.meta.url));
const python = process.env.PYTHON ?? 'python3';

export function engineGames(actions = 40) {
  const output = execFileSync(python, [script, String(actions)], { encoding: 'utf8', timeout: 60000 });
  return JSON.parse(output);
}
