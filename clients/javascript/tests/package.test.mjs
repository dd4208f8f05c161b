// The package as a user gets it: `npm pack`, the tarball installed into a scratch folder outside the checkout (no
// registry: the package has no dependency), its `freecell-arena-js-bot` command racing another of itself on a real
// server, and the example TypeScript bot type-checked by tsc against the installed declarations.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import test, { after } from 'node:test';
import { fileURLToPath } from 'node:url';

import { startServer } from './server.mjs';

const PACKAGE = dirname(dirname(fileURLToPath(import.meta.url)));
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const QUIET = ['--no-audit', '--no-fund', '--loglevel=error', '--ignore-scripts'];
const TSC = join(PACKAGE, 'node_modules', 'typescript', 'bin', 'tsc'); // the devDependency (npm ci in this folder)

let installed = null; // packed and installed once for both tests; removed after them
after(() => installed && rmSync(installed.folder, { recursive: true, force: true }));

function installedPackage() {
  installed ??= packAndInstall();
  return installed;
}

function packAndInstall() {
  const folder = mkdtempSync(join(tmpdir(), 'freecell-arena-npm-'));
  execFileSync(NPM, ['pack', '--pack-destination', folder, ...QUIET], { cwd: PACKAGE, stdio: 'pipe', timeout: 120_000 });
  const [tarball] = readdirSync(folder).filter((name) => name.endsWith('.tgz'));
  assert.match(tarball, /^freecell-arena-client-\d+\.\d+\.\d+\.tgz$/);
  const project = join(folder, 'my-bot');
  execFileSync('mkdir', [project]);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'my-bot', private: true, type: 'module' }));
  execFileSync(NPM, ['install', '--offline', ...QUIET, join(folder, tarball)], { cwd: project, stdio: 'pipe', timeout: 120_000 });
  return { folder, project };
}

/** Runs the installed command; resolves with its output once it exits 0 (rejects otherwise). */
function command(project, args, onLine = () => {}) {
  const child = spawn(join(project, 'node_modules', '.bin', 'freecell-arena-js-bot'), args, {
    cwd: project, env: { ...process.env, NODE_OPTIONS: '--experimental-websocket --no-warnings' }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
    for (const line of String(chunk).split('\n')) onLine(line);
  });
  child.stderr.on('data', (chunk) => { err += chunk; });
  const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
  return new Promise((resolve, reject) => child.on('exit', (code) => {
    clearTimeout(timer);
    if (code === 0) resolve(out);
    else reject(new Error(`freecell-arena-js-bot ${args.join(' ')} exited ${code}: ${out}${err}`));
  }));
}

test('the packed tarball installs alone and its bot races another on a server', { timeout: 300_000 }, async () => {
  const { project } = installedPackage();
  const server = await startServer({ FREECELL_ARENA_RATE_LIMIT_PER_S: '200', FREECELL_ARENA_RATE_LIMIT_BURST: '200' });
  try {
    const installed = join(project, 'node_modules', 'freecell-arena-client');
    assert.ok(existsSync(join(installed, 'types', 'protocol.d.ts')), 'the declarations ship in the tarball');
    assert.ok(!existsSync(join(installed, 'tests')) && !existsSync(join(installed, 'node_modules')), 'nothing else does');
    let announce;
    const code = new Promise((resolve) => { announce = resolve; });
    const host = command(project, [server.url, '--create', 'freecell', '--seed', '617', '--players', '2', '--name', 'npm-host'],
      (line) => { const found = /^room (\S+)/.exec(line); if (found) announce(found[1]); });
    const guest = code.then((room) => command(project, [server.url, '--room', room, '--name', 'npm-guest']));
    const outputs = await Promise.all([host, guest]);
    for (const output of outputs) {
      assert.match(output, /^hello npm-(host|guest) /m);
      assert.match(output, /rank \d of 2 \(seed 617\)/);
    }
    // the package's own entry points, by name, from the scratch folder
    const probe = "import { PROTOCOL, Connection } from 'freecell-arena-client'; import { candidates } from 'freecell-arena-client/bot';"
      + " import { readGame } from 'freecell-arena-client/game-text';"
      + " console.log(PROTOCOL, typeof Connection.open, typeof candidates, typeof readGame)";
    assert.equal(execFileSync(process.execPath, ['--input-type=module', '-e', probe], { cwd: project }).toString().trim(), '4 function function function');
  } finally {
    await server.stop();
  }
});

test('tsc passes on the example TypeScript bot against the installed declarations', { timeout: 180_000 }, (context) => {
  if (!existsSync(TSC)) {
    if (process.env.CI === 'true') assert.fail('typescript is missing: run npm ci in clients/javascript');
    context.skip('typescript is not installed (npm ci in clients/javascript)');
    return;
  }
  const { project } = installedPackage();
  try {
    copyFileSync(join(project, 'node_modules', 'freecell-arena-client', 'examples', 'typed-bot.ts'), join(project, 'bot.ts'));
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', lib: ['es2022', 'dom'], strict: true, noEmit: true,
        types: ['node'], typeRoots: [join(PACKAGE, 'node_modules', '@types')],
      },
      files: ['bot.ts'],
    }));
    execFileSync(process.execPath, [TSC, '-p', project], { cwd: project, stdio: 'pipe', timeout: 120_000 });
  } catch (error) {
    assert.fail(`tsc: ${error.stdout ?? ''}${error.stderr ?? ''}${error.message}`);
  }
});
