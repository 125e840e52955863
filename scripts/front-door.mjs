#!/usr/bin/env node
// The front door: `npm start` and `npm test` on a machine with only Node.js 20 or newer and npm.
//
//   node scripts/front-door.mjs start [args]   provision, install, build, check the servers, then start the stack
//   node scripts/front-door.mjs test [args]    provision, install, build, check the servers, then the whole suite
//                                              in TEST_SHARDS (2) shards side by side (args go to one jest run
//                                              instead, e.g. a test file)
//   node scripts/front-door.mjs env            provision, then print the shell lines that put this Node and pnpm
//                                              on PATH: eval "$(node scripts/front-door.mjs env)"
//   node scripts/front-door.mjs pnpm [args]    provision, then run pnpm with args (npm run pnpm -- bench idle)
//
// Provisioning: the Node.js release in .node-version and the pnpm in package.json's packageManager, each
// installed once from the npm registry into a cache outside the checkout and reused afterwards; the
// machine's own node is never touched. .ci/run uses the same provisioning (the `env` command).
//
// Plain JavaScript with no dependency: it runs before anything is installed, on the machine's older node.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { homedir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const NODE_WANTED = readFileSync(join(ROOT, '.node-version'), 'utf8').trim();
const PNPM_WANTED = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).packageManager.split('@')[1];
const CACHE = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'business-messaging');
const NODE_PREFIX = process.env.BM_NODE_CACHE || join(CACHE, `node-${NODE_WANTED}`);
const PNPM_PREFIX = process.env.BM_PNPM_PREFIX || join(CACHE, `pnpm-node-${NODE_WANTED}`);

const [command = 'help', ...args] = process.argv.slice(2);
const quiet = command === 'env';
const began = Date.now();

/** Progress goes to stderr, so that `env`'s stdout is only the lines to evaluate. */
const say = (line) => process.stderr.write(`[front door] ${line}\n`);
// Whole seconds past a minute, rounded before they are split (never "10 min 60 s").
const seconds = (ms) =>
  ms < 60_000
    ? `${(ms / 1000).toFixed(1)} s`
    : `${Math.floor(Math.round(ms / 1000) / 60)} min ${Math.round(ms / 1000) % 60} s`;

class Stop extends Error {}

/** Runs one step, printing what it is and how long it took; a failed step stops everything. */
async function step(title, work) {
  const started = Date.now();
  if (!quiet) say(`${title} ...`);
  const result = await work();
  if (!quiet) say(`${title}: done in ${seconds(Date.now() - started)}`);
  return result;
}

/** What `bin --version` prints, or undefined when it does not run. */
function versionOf(bin, env = process.env) {
  const out = spawnSync(bin, ['--version'], { encoding: 'utf8', env });
  return out.status === 0 ? out.stdout.trim() : undefined;
}

function runQuiet(cmd, cmdArgs, env) {
  const out = spawnSync(cmd, cmdArgs, { encoding: 'utf8', env, stdio: ['ignore', 'pipe', 'pipe'] });
  if (out.status !== 0) {
    process.stderr.write(out.stdout ?? '');
    process.stderr.write(out.stderr ?? '');
    throw new Stop(`${cmd} ${cmdArgs.join(' ')} failed (${out.error?.message ?? `exit ${out.status}`})`);
  }
}

/** The Node.js of .node-version: this one when it is that release, else the cached copy (installed once). */
function provisionNode() {
  if (process.version === `v${NODE_WANTED}`) return dirname(process.execPath);
  const bin = join(NODE_PREFIX, 'node_modules', '.bin');
  if (versionOf(join(bin, 'node')) !== `v${NODE_WANTED}`) {
    if (!quiet) say(`installing Node.js ${NODE_WANTED} into ${NODE_PREFIX} (once)`);
    rmSync(NODE_PREFIX, { recursive: true, force: true });
    mkdirSync(NODE_PREFIX, { recursive: true });
    runQuiet(
      'npm',
      [
        'install',
        '--prefix',
        NODE_PREFIX,
        '--no-fund',
        '--no-audit',
        '--loglevel=error',
        `node@${NODE_WANTED}`,
      ],
      process.env,
    );
    if (versionOf(join(bin, 'node')) !== `v${NODE_WANTED}`)
      throw new Stop(`Node.js ${NODE_WANTED} did not install into ${NODE_PREFIX}`);
  }
  return bin;
}

/** pnpm of packageManager, installed globally beside the provisioned node (so it runs on it). */
function provisionPnpm(env) {
  const bin = process.platform === 'win32' ? PNPM_PREFIX : join(PNPM_PREFIX, 'bin');
  if (versionOf(join(bin, 'pnpm'), env) !== PNPM_WANTED) {
    if (!quiet) say(`installing pnpm ${PNPM_WANTED} into ${PNPM_PREFIX} (once)`);
    runQuiet(
      'npm',
      ['install', '--global', '--no-fund', '--no-audit', '--loglevel=error', `pnpm@${PNPM_WANTED}`],
      {
        ...env,
        NPM_CONFIG_PREFIX: PNPM_PREFIX,
      },
    );
    if (versionOf(join(bin, 'pnpm'), env) !== PNPM_WANTED)
      throw new Stop(`pnpm ${PNPM_WANTED} did not install into ${PNPM_PREFIX}`);
  }
  return bin;
}

function provision() {
  const nodeBin = provisionNode();
  const env = { ...process.env, PATH: [nodeBin, process.env.PATH].join(delimiter) };
  const pnpmBin = provisionPnpm(env);
  env.PATH = [nodeBin, pnpmBin, process.env.PATH].join(delimiter);
  if (!quiet)
    say(`Node.js ${versionOf(join(nodeBin, 'node'))} (${nodeBin}), pnpm ${PNPM_WANTED} (${pnpmBin})`);
  return { env, nodeBin, pnpmBin };
}

const children = new Set();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    const running = [...children].filter((c) => c.exitCode === null);
    if (running.length > 0) for (const c of running) c.kill(signal);
    else process.exit(130);
  });
}

/**
 * Runs a command; resolves with its exit code. With the terminal attached, or (`prefix`) with each line of its
 * output written after the prefix, so that commands running side by side can be told apart.
 */
function run(cmd, cmdArgs, env, prefix) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, cmdArgs, {
      cwd: ROOT,
      env,
      stdio: prefix ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    children.add(child);
    if (prefix) {
      for (const [from, to] of [
        [child.stdout, process.stdout],
        [child.stderr, process.stderr],
      ]) {
        let rest = '';
        from.setEncoding('utf8');
        from.on('data', (chunk) => {
          const lines = (rest + chunk).split('\n');
          rest = lines.pop();
          if (lines.length > 0) to.write(lines.map((line) => `${prefix}${line}\n`).join(''));
        });
        from.on('end', () => rest && to.write(`${prefix}${rest}\n`));
      }
    }
    child.once('error', reject);
    child.once('close', (code, signal) => {
      children.delete(child);
      resolve(code ?? (signal ? 128 : 1));
    });
  });
}

/**
 * The whole suite as `shards` jest runs side by side, each its own run (its own database, queue and cache
 * prefix: test/global-setup.js) over its share of the files, split by measured time (test/shard-sequencer.js),
 * then the files of test/alone.json in one run by themselves. The tests wait on servers and timers more than they
 * compute, so two shards take little more than half the time on two cores. Resolves with the first failing run's
 * exit code, or 0.
 */
async function runShards(shards, env) {
  const codes = await Promise.all(
    Array.from({ length: shards }, (_, i) =>
      run(
        'pnpm',
        ['exec', 'jest', '--runInBand', `--shard=${i + 1}/${shards}`],
        env,
        `[${i + 1}/${shards}] `,
      ),
    ),
  );
  codes.forEach((code, i) =>
    say(`shard ${i + 1}/${shards}: ${code === 0 ? 'passed' : `failed (exit ${code})`}`),
  );
  // The files that measure a pace at the sandbox's clock, by themselves on a machine no shard loads (test/alone.json).
  const alone = JSON.parse(readFileSync(join(ROOT, 'test', 'alone.json'), 'utf8')).files;
  const aloneCode = await run('pnpm', ['exec', 'jest', '--runInBand', ...alone], env, '[alone] ');
  say(`the files run alone: ${aloneCode === 0 ? 'passed' : `failed (exit ${aloneCode})`}`);
  return [...codes, aloneCode].find((code) => code !== 0) ?? 0;
}

async function mustRun(cmd, cmdArgs, env) {
  const code = await run(cmd, cmdArgs, env);
  if (code !== 0) throw new Stop(`${cmd} ${cmdArgs.join(' ')} failed (exit ${code})`);
}

/** The servers the stack needs, where its configuration (or the default) puts them, and how to start each. */
function servers(forTests) {
  const pg = forTests
    ? process.env.TEST_PG_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres'
    : process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/business_messaging';
  return [
    {
      name: 'PostgreSQL',
      url: pg,
      port: 5432,
      compose: 'postgres',
      local: 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start',
    },
    {
      name: 'RabbitMQ',
      url: process.env.AMQP_URL || 'amqp://127.0.0.1:5672',
      port: 5672,
      compose: 'rabbitmq',
      local: 'rabbitmq-server -detached',
    },
    {
      name: 'Redis',
      url: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
      port: 6379,
      compose: 'redis',
      local: 'redis-server --daemonize yes',
    },
  ];
}

function reachable(host, port) {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (error) => {
      socket.destroy();
      resolve(error);
    };
    socket.setTimeout(3000, () => done('no answer within 3 s'));
    socket.once('connect', () => done(undefined));
    socket.once('error', (err) => done(err.code ?? err.message));
  });
}

async function checkServers(forTests) {
  const problems = [];
  await Promise.all(
    servers(forTests).map(async (s) => {
      const url = new URL(s.url);
      const host = url.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1';
      const port = Number(url.port || s.port);
      const error = await reachable(host, port);
      if (error) {
        problems.push(
          `${s.name} is not reachable at ${host}:${port} (${error}). Start it with \`docker compose up -d ${s.compose}\`` +
            ` (from this folder), or where it is installed locally: \`${s.local}\`.`,
        );
      }
    }),
  );
  if (problems.length > 0) throw new Stop(problems.join('\n             '));
}

async function installAndBuild(env) {
  await step('install (pnpm install --frozen-lockfile)', () =>
    mustRun('pnpm', ['install', '--frozen-lockfile'], env),
  );
  await step('build (pnpm build)', () => mustRun('pnpm', ['build'], env));
}

const COMMANDS = {
  async start() {
    const { env } = await step('provision Node.js and pnpm', async () => provision());
    await step('check PostgreSQL, RabbitMQ and Redis', () => checkServers(false));
    await installAndBuild(env);
    say(
      'start: migrate every schema, start each service and the sandbox, seed the demo tenant (Ctrl-C stops it)',
    );
    return run('node', [join(ROOT, 'scripts', 'dist', 'start.js'), ...args], env);
  },
  async test() {
    const { env } = await step('provision Node.js and pnpm', async () => provision());
    await step('check PostgreSQL, RabbitMQ and Redis', () => checkServers(true));
    await installAndBuild(env);
    // A file or other jest arguments: one run, as asked. The whole suite: TEST_SHARDS runs side by side (2).
    const shards =
      args.length > 0 ? 1 : Math.max(1, Number.parseInt(process.env.TEST_SHARDS ?? '2', 10) || 1);
    const code =
      shards > 1
        ? await step(`test (jest --runInBand, ${shards} shards side by side)`, () => runShards(shards, env))
        : await step(`test (jest --runInBand${args.length ? ` ${args.join(' ')}` : ''})`, () =>
            run('pnpm', ['exec', 'jest', '--runInBand', ...args], env),
          );
    if (code !== 0) throw new Stop(`the test suite failed (exit ${code})`);
    return 0;
  },
  async env() {
    const { nodeBin, pnpmBin } = provision();
    const quote = (s) => `'${s.replace(/'/g, `'\\''`)}'`;
    process.stdout.write(
      `export PATH=${quote(nodeBin)}:${quote(pnpmBin)}:"$PATH"\nhash -r 2>/dev/null || true\n`,
    );
    return 0;
  },
  async pnpm() {
    const { env } = await step('provision Node.js and pnpm', async () => provision());
    return run('pnpm', args, env);
  },
};

async function main() {
  const work = COMMANDS[command];
  if (!work) {
    process.stderr.write('usage: node scripts/front-door.mjs <start|test|env|pnpm> [args]\n');
    return 2;
  }
  try {
    const code = await work();
    if (!quiet && command !== 'start')
      say(`${command}: ${code === 0 ? 'done' : `exit ${code}`} in ${seconds(Date.now() - began)}`);
    return code;
  } catch (err) {
    if (!(err instanceof Stop)) throw err;
    say(`${command} stopped after ${seconds(Date.now() - began)}: ${err.message}`);
    return 1;
  }
}

process.exitCode = await main();
