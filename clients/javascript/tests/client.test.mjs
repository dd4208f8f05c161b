// The client's own checks, on a stand-in socket: a `welcome` of another protocol version is refused with a message
// that says which side is too old.
import assert from 'node:assert/strict';
import test from 'node:test';

import { Connection, PROTOCOL, ProtocolMismatch } from '../client.mjs';

/** A socket whose server answers `hello` with a welcome of `protocol`. */
function standIn(protocol) {
  const socket = new EventTarget();
  socket.closed = false;
  socket.send = (text) => {
    const hello = JSON.parse(text);
    const welcome = { type: 'welcome', id: hello.id, protocol, player_id: 'p', name: hello.name, token: 't', resumed: false };
    queueMicrotask(() => socket.dispatchEvent(new MessageEvent('message', { data: JSON.stringify(welcome) })));
  };
  socket.close = () => { socket.closed = true; };
  return socket;
}

for (const [protocol, words] of [[PROTOCOL + 1, 'the client is too old for the server'], [PROTOCOL - 1, 'the server is older than the client']]) {
  test(`hello refuses a welcome of protocol ${protocol}, saying ${words}`, async () => {
    const socket = standIn(protocol);
    const connection = new Connection(socket);
    await assert.rejects(connection.hello('old-bot'), (error) => {
      assert.ok(error instanceof ProtocolMismatch);
      assert.equal(error.server, protocol);
      assert.match(error.message, new RegExp(`speaks protocol ${PROTOCOL}, the server protocol ${protocol}: ${words}`));
      return true;
    });
    assert.equal(connection.welcome, null);
    assert.ok(socket.closed, 'the connection is closed');
  });
}

test('hello takes a welcome of its own protocol', async () => {
  const connection = new Connection(standIn(PROTOCOL));
  assert.equal((await connection.hello('bot')).protocol, PROTOCOL);
  assert.equal(connection.welcome.protocol, PROTOCOL);
});
