// The conformance transcripts (clients/conformance/transcripts/), replayed by this JavaScript client against a real
// server started with each transcript's settings: the same files the Python SDK's tests replay.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import test from 'node:test';
import { fileURLToPath } from 'node:url';

import { ConformanceError, match, replay } from '../conformance.mjs';
import { startServer } from './server.mjs';

const folder = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'conformance', 'transcripts');
const transcripts = readdirSync(folder).filter((name) => name.endsWith('.json')).sort()
  .map((name) => JSON.parse(readFileSync(join(folder, name), 'utf8')));

for (const transcript of transcripts) {
  test(`transcript ${transcript.name}`, { timeout: 180_000 }, async () => {
    const server = await startServer(transcript.settings);
    try {
      const variables = await replay(server.url, transcript);
      assert.ok(Object.keys(variables).length > 0, 'the transcript bound its ids');
    } finally {
      await server.stop();
    }
  });
}

test('a seed past 2^53 comes back from JSON.parse exactly as the server holds it', () => {
  const race = transcripts.find((transcript) => transcript.name === 'leave_mid_race');
  const frames = race.steps.filter((step) => step.expect?.type === 'race_started').map((step) => step.expect);
  assert.ok(frames.length > 0);
  for (const frame of frames) assert.equal(frame.game.seed, '7654041082873553397');
  const parsed = JSON.parse('{"type":"race_over","seed":"7654041082873553397"}');
  assert.equal(parsed.seed, '7654041082873553397');
  assert.notEqual(JSON.parse('{"seed":7654041082873553397}').seed.toString(), '7654041082873553397',
    'as a JSON number (protocol 3) it was rounded');
});

test('the matcher binds variables, allows $*, and refuses what differs', () => {
  const variables = {};
  match({ id: '$x', at: '$*', n: 3 }, { id: 'p_1', at: '2026', n: 3 }, variables);
  assert.equal(variables.$x, 'p_1');
  assert.throws(() => match({ id: '$x' }, { id: 'p_2' }, variables), ConformanceError);
  assert.throws(() => match({ n: 3 }, { n: 3, extra: 1 }, variables), ConformanceError);
  assert.throws(() => match({ n: 3 }, { n: '3' }, variables), ConformanceError);
});
