/**
 * Replays a conformance transcript (clients/conformance/README.md) against a server, with this client's
 * Connection: the frames it sends, the frames each connection must receive, in order, exactly but for the
 * placeholders (`"$*"` anything; `"$name"` a variable bound where first met). The Python SDK replays the same
 * files (freecell_arena_client.conformance).
 */

import { Connection } from './client.mjs';

const ANY = '$*';
const QUIET_MS = 300;

export class ConformanceError extends Error {}

function isVariable(value) {
  return typeof value === 'string' && value.startsWith('$') && value !== ANY;
}

/** A frame to send, its variables put in. */
export function substitute(value, variables) {
  if (isVariable(value)) {
    if (!(value in variables)) throw new ConformanceError(`${value} is sent before any frame bound it`);
    return variables[value];
  }
  if (Array.isArray(value)) return value.map((item) => substitute(item, variables));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substitute(item, variables)]));
  }
  return value;
}

/** Throws ConformanceError where `actual` differs from `expected`; binds the variables met first here. */
export function match(expected, actual, variables, where = '(frame)') {
  if (expected === ANY) return;
  if (isVariable(expected)) {
    if (expected in variables) {
      if (JSON.stringify(variables[expected]) !== JSON.stringify(actual)) {
        throw new ConformanceError(`${where}: ${expected} is ${JSON.stringify(variables[expected])}, got ${JSON.stringify(actual)}`);
      }
    } else {
      variables[expected] = actual;
    }
    return;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) {
      throw new ConformanceError(`${where}: expected ${expected.length} items, got ${JSON.stringify(actual)}`);
    }
    expected.forEach((item, index) => match(item, actual[index], variables, `${where}[${index}]`));
    return;
  }
  if (expected && typeof expected === 'object') {
    if (!actual || typeof actual !== 'object' || Array.isArray(actual)) {
      throw new ConformanceError(`${where}: expected an object, got ${JSON.stringify(actual)}`);
    }
    const want = Object.keys(expected).sort();
    const got = Object.keys(actual).sort();
    if (JSON.stringify(want) !== JSON.stringify(got)) {
      throw new ConformanceError(`${where}: keys ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
    }
    for (const key of want) match(expected[key], actual[key], variables, `${where}.${key}`);
    return;
  }
  if (expected !== actual) {
    throw new ConformanceError(`${where}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

/** Every integer in a parsed frame is one a JavaScript number holds exactly (I-JSON). */
export function checkSafeIntegers(value, where = '(frame)') {
  if (typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value)) {
    throw new ConformanceError(`${where}: ${value} is beyond 2^53 - 1 (not I-JSON)`);
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) checkSafeIntegers(item, `${where}.${key}`);
  }
}

/** Replays `transcript` against the server at `url`; resolves with the variables bound. */
export async function replay(url, transcript) {
  const connections = new Map();
  const variables = {};
  try {
    for (const [index, step] of transcript.steps.entries()) {
      try {
        await play(step, connections, url, variables);
      } catch (error) {
        error.message = `${transcript.name}, step ${index + 1} ${JSON.stringify(step).slice(0, 300)}: ${error.message}`;
        throw error;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
    for (const [name, connection] of connections) {
      const left = connection.inbox.find((item) => item.frame);
      if (left) throw new ConformanceError(`${transcript.name}: ${name} received a frame the transcript does not expect: ${left.text}`);
    }
  } finally {
    for (const connection of connections.values()) connection.close();
  }
  return variables;
}

async function play(step, connections, url, variables) {
  const name = step.as;
  if (step.connect) {
    connections.set(name, await Connection.open(url));
  } else if ('send' in step) {
    connections.get(name).send(substitute(step.send, variables));
  } else if ('send_text' in step) {
    connections.get(name).sendText(step.send_text.repeat(step.repeat ?? 1));
  } else if ('expect' in step) {
    const item = await connections.get(name).next();
    if (item.closed) throw new ConformanceError(`${name}'s connection closed (${item.closed.code}) where a frame was expected`);
    checkSafeIntegers(item.frame);
    match(step.expect, item.frame, variables);
  } else if ('closed' in step) {
    const connection = connections.get(name);
    connections.delete(name);
    const item = await connection.next();
    if (!item.closed) throw new ConformanceError(`${name} expected close ${step.closed}, got a frame: ${item.text}`);
    if (item.closed.code !== step.closed) {
      throw new ConformanceError(`${name} closed with ${item.closed.code} (${item.closed.reason}), expected ${step.closed}`);
    }
  } else if (step.close) {
    connections.get(name).close();
    connections.delete(name);
  } else {
    throw new ConformanceError(`a step this player does not know: ${JSON.stringify(step)}`);
  }
}
