#!/usr/bin/env node
/**
 * types/protocol.d.ts from docs/schema/protocol.json, by json-schema-to-typescript at the version package-lock.json
 * pins (a devDependency: `npm ci --ignore-scripts` in this folder brings it). Every message of the schema's `$defs`
 * becomes an exported interface of the same name (HelloRequest, WelcomeMessage, MoveAcceptedMessage...), and
 * `ClientToServer` / `ServerToClient` are the unions of what each side sends.
 *
 *   node scripts/generate-types.mjs           # writes types/protocol.d.ts
 *   node scripts/generate-types.mjs --check   # exits 1 if the file differs from what the schema makes now
 *
 * CI runs the check (.ci/run), as it runs `python -m freecell_arena.protocol.generate --check` for the schema itself.
 */

import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { compile } from 'json-schema-to-typescript';

const HERE = dirname(dirname(fileURLToPath(import.meta.url)));
const SCHEMA = join(HERE, '..', '..', 'docs', 'schema', 'protocol.json');
const OUTPUT = join(HERE, 'types', 'protocol.d.ts');
const BANNER = `/* Generated from docs/schema/protocol.json by json-schema-to-typescript (clients/javascript/scripts/generate-types.mjs).
 * Do not edit: change the server's models, regenerate the schema (python -m freecell_arena.protocol.generate),
 * then this file (npm run generate in clients/javascript). */`;

/** A schema without the `title` of its inner schemas: a field's type is then written in place (`protocol: 4`,
 * `type: "welcome"`), not as an alias named after the field's title (`Protocol1`, `Type49`). */
function untitled(schema) {
  if (Array.isArray(schema)) return schema.map(untitled);
  if (schema === null || typeof schema !== 'object') return schema;
  const { title, ...rest } = schema;
  return Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, key === 'properties'
    ? Object.fromEntries(Object.entries(value).map(([name, field]) => [name, untitled(field)]))
    : untitled(value)]));
}

export async function generate() {
  const source = JSON.parse(readFileSync(SCHEMA, 'utf8'));
  // each message keeps its own title (its interface's name); the fields inside lose theirs
  const schema = {
    ...source,
    $defs: Object.fromEntries(Object.entries(source.$defs).map(([name, definition]) => [name, { ...untitled(definition), title: definition.title ?? name }])),
  };
  // The root's two properties are the unions of each side's messages: named for TypeScript, not a message itself.
  const root = {
    ...schema,
    title: 'Protocol',
    properties: {
      client_to_server: { ...schema.properties.client_to_server, title: 'ClientToServer' },
      server_to_client: { ...schema.properties.server_to_client, title: 'ServerToClient' },
    },
  };
  return compile(root, 'Protocol', {
    bannerComment: BANNER,
    unreachableDefinitions: true,
    additionalProperties: false,
    strictIndexSignatures: true,
    format: true,
    cwd: dirname(SCHEMA),
  });
}

const text = await generate();
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(OUTPUT, 'utf8');
  } catch {
    // missing: differs
  }
  if (current !== text) {
    console.error('clients/javascript/types/protocol.d.ts is not what docs/schema/protocol.json makes: run `npm run generate` in clients/javascript');
    process.exit(1);
  }
  console.log('clients/javascript/types/protocol.d.ts matches docs/schema/protocol.json');
} else {
  writeFileSync(OUTPUT, text);
  console.log(`wrote ${OUTPUT}`);
}
