import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { DEFAULT_ADMIN_UI_DIR } from '../../src/admin-ui/admin-ui.plugin.js';
import { loadConfig } from '../../src/config.js';
import { inAnyRange, parseAddressRange } from '../../src/net/ip-ranges.js';
import { parseCommand, type Command } from '../../src/process/cli-args.js';
import { SHUTDOWN_TIMEOUT_MS } from '../../src/process/shutdown.js';

/**
 * The deployment files (Dockerfile, deploy/compose.yaml, deploy/haproxy.cfg,
 * deploy/systemd/) checked against the code they start: every command is one the CLI
 * accepts, every variable one config.ts reads, the timings fit the drain. Docker itself is
 * exercised by `npm run test:docker` (test/docker/), where a daemon runs.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file: string): string => fs.readFileSync(path.join(ROOT, file), 'utf8');

/** The variables loadConfig reads: every name it asks an environment for. */
function variablesConfigReads(): ReadonlySet<string> {
  const names = new Set<string>();
  const env = new Proxy(
    {},
    {
      get: (_target, key) => {
        if (typeof key === 'string') names.add(key);
        return undefined;
      },
    },
  );
  loadConfig(env, '/');
  return names;
}

const CONFIG_VARIABLES = variablesConfigReads();
const DEFAULTS = loadConfig({}, '/');
/** What a stopping `patron serve` may take: the drain, then the close (docs/shutdown.md). */
const LONGEST_STOP_MS = DEFAULTS.shutdownDrainMs + SHUTDOWN_TIMEOUT_MS;

function seconds(text: string): number {
  const match = /^(\d+)(ms|s|m)?$/.exec(text.trim());
  if (!match) throw new Error(`not a duration: ${text}`);
  const value = Number(match[1]);
  return match[2] === 'ms' ? value / 1000 : match[2] === 'm' ? value * 60 : value;
}

/** `${NAME:-default}` → default; `${NAME:?message}` → undefined (no default: required). */
function defaultOf(value: string): string | undefined {
  return /^\$\{[A-Z0-9_]+:-([^}]*)\}$/.exec(value)?.[1];
}

function findExecutable(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/sbin', '/usr/bin'];
  return dirs.map((dir) => path.join(dir, name)).find((file) => fs.existsSync(file));
}

describe('the Dockerfile', () => {
  interface Instruction {
    readonly stage: number;
    readonly keyword: string;
    readonly args: string;
  }
  const instructions: Instruction[] = [];
  let stage = -1;
  for (const line of read('Dockerfile')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))) {
    const [keyword = '', ...rest] = line.split(/\s+/);
    if (keyword.toUpperCase() === 'FROM') stage += 1;
    instructions.push({ stage, keyword: keyword.toUpperCase(), args: rest.join(' ') });
  }
  const runtime = instructions.filter((i) => i.stage === stage);
  const one = (keyword: string): string => {
    const found = runtime.filter((i) => i.keyword === keyword);
    expect(found, keyword).toHaveLength(1);
    return found[0]?.args ?? '';
  };
  const runtimeEnv = new Map(
    runtime
      .filter((i) => i.keyword === 'ENV')
      .flatMap((i) => i.args.split(/\s+/))
      .map((pair) => pair.split('=') as [string, string]),
  );

  it('builds every stage on the BASE_IMAGE argument, a Node.js 20 image by default', () => {
    expect(instructions[0]).toMatchObject({ keyword: 'ARG', args: 'BASE_IMAGE=node:20-bookworm-slim' });
    const froms = instructions.filter((i) => i.keyword === 'FROM');
    expect(froms.length).toBeGreaterThanOrEqual(3);
    for (const from of froms) expect(from.args).toMatch(/^\$\{BASE_IMAGE\}( AS [a-z-]+)?$/);
  });

  it('runs `patron serve` through node as an unprivileged user, stopped by SIGTERM', () => {
    expect(JSON.parse(one('ENTRYPOINT'))).toEqual(['node', 'dist/cli.js']);
    expect(parseCommand(JSON.parse(one('CMD')) as string[])).toEqual({ kind: 'serve', worker: true });
    expect(one('USER')).not.toMatch(/^(root|0)(:|$)/);
    expect(one('STOPSIGNAL')).toBe('SIGTERM');
    expect(one('HEALTHCHECK')).toMatch(/^--interval=\S+ --timeout=\S+ --start-period=\S+ --retries=\d+ CMD \["node", "-e", ".*\/health/);
  });

  it('sets only variables that config.ts reads, exposes PORT and keeps PATRON_DATA_DIR in a volume', () => {
    expect([...runtimeEnv.keys()].filter((name) => !CONFIG_VARIABLES.has(name))).toEqual([]);
    expect(one('EXPOSE')).toBe(runtimeEnv.get('PORT'));
    expect(JSON.parse(one('VOLUME'))).toEqual([runtimeEnv.get('PATRON_DATA_DIR')]);
  });

  it('puts the compiled server, the admin UI and package.json where the server looks for them', () => {
    const workdir = one('WORKDIR');
    const copied = runtime
      .filter((i) => i.keyword === 'COPY')
      .map((i) => path.posix.normalize(path.posix.resolve(workdir, i.args.split(/\s+/).at(-1) ?? '')));
    const inApp = (relative: string): string => path.posix.join(workdir, relative.split(path.sep).join('/'));
    const outDir = (JSON.parse(read('tsconfig.build.json')) as { compilerOptions: { outDir: string } }).compilerOptions.outDir;
    expect(copied).toEqual(
      expect.arrayContaining([
        inApp(outDir),
        inApp(path.relative(ROOT, DEFAULT_ADMIN_UI_DIR)),
        inApp('package.json'),
        inApp('node_modules'),
      ]),
    );
  });

  it('rebuilds exactly the production packages that have install scripts, after installing without them', () => {
    const lock = JSON.parse(read('package-lock.json')) as {
      packages: Record<string, { dev?: boolean; hasInstallScript?: boolean }>;
    };
    const withScripts = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript === true && entry.dev !== true)
      .map(([key]) => key.replace(/^.*node_modules\//, ''))
      .sort();
    const runs = instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args);
    const prodInstall = runs.find((run) => run.includes('npm ci --omit=dev'));
    expect(prodInstall).toContain('--ignore-scripts');
    const rebuilt = [...(prodInstall ?? '').matchAll(/npm rebuild ([a-z0-9@/ .-]+?)(?:\s*&&|$)/g)].flatMap((m) =>
      (m[1] ?? '').trim().split(/\s+/),
    );
    expect(rebuilt.sort()).toEqual(withScripts);
    for (const run of runs.filter((r) => r.includes('npm ci'))) expect(run).toContain('--ignore-scripts');
  });

  it('sends the build only what its COPY lines name (.dockerignore allows no more)', () => {
    const rules = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('#'));
    expect(rules[0]).toBe('*');
    const allowed = new Set(rules.filter((r) => r.startsWith('!')).map((r) => r.slice(1)));
    const sources = instructions
      .filter((i) => i.keyword === 'COPY' && !i.args.startsWith('--from'))
      .flatMap((i) => i.args.split(/\s+/).slice(0, -1))
      .map((source) => source.replace(/^\.\//, ''));
    expect(sources.length).toBeGreaterThan(0);
    expect(sources.filter((source) => !allowed.has(source))).toEqual([]);
    expect(rules).toContain('web/dist');
  });
});

describe('deploy/compose.yaml', () => {
  interface Service {
    readonly image?: string;
    readonly build?: { context: string };
    readonly command?: string[];
    readonly environment?: Record<string, string>;
    readonly depends_on?: Record<string, { condition: string }>;
    readonly deploy?: { replicas?: number };
    readonly healthcheck?: { disable?: boolean; test?: string[] };
    readonly stop_grace_period?: string;
    readonly restart?: string;
    readonly volumes?: string[];
    readonly ports?: string[];
    readonly networks?: Record<string, { ipv4_address?: string } | null> | string[];
  }
  const compose = parseYaml(read('deploy/compose.yaml'), { merge: true }) as {
    services: Record<string, Service>;
    networks: Record<string, { ipam: { config: { subnet: string }[] } }>;
  };
  const { services } = compose;
  const patronServices = Object.entries(services).filter(([, s]) => s.build !== undefined);

  it('runs the Patron image as migrate, API and worker services, each with a command the CLI accepts', () => {
    const commands = Object.fromEntries(patronServices.map(([name, s]) => [name, parseCommand(s.command ?? [])]));
    expect(commands).toEqual<Record<string, Command>>({
      migrate: { kind: 'migrate' },
      api: { kind: 'serve', worker: false },
      worker: { kind: 'worker' },
    });
    for (const [, service] of patronServices) {
      expect(service.build?.context).toBe('..');
      expect(fs.existsSync(path.join(ROOT, 'deploy', service.build?.context ?? '', 'Dockerfile'))).toBe(true);
      expect(service.image).toBe(services.migrate?.image);
    }
    expect(services.api?.deploy?.replicas).toBe(3);
    expect(services.worker?.deploy?.replicas).toBe(2);
  });

  it('passes only variables that config.ts reads, with one required secret key and no literal secret', () => {
    for (const [name, service] of patronServices) {
      const env = service.environment ?? {};
      expect(
        Object.keys(env).filter((key) => !CONFIG_VARIABLES.has(key)),
        name,
      ).toEqual([]);
      expect(env.PATRON_SECRET_KEY, name).toMatch(/^\$\{PATRON_SECRET_KEY:\?[^}]+\}$/);
      expect(env.DATABASE_URL, name).toMatch(/^postgres:\/\/patron:\$\{POSTGRES_PASSWORD:\?[^}]+\}@postgres:5432\/patron$/);
    }
    expect(services.postgres?.environment?.POSTGRES_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?[^}]+\}$/);
    const example = read('deploy/env.example');
    expect(example).toMatch(/^POSTGRES_PASSWORD=$/m);
    expect(example).toMatch(/^PATRON_SECRET_KEY=$/m);
  });

  it('migrates once before the API and the workers start, after PostgreSQL answers', () => {
    expect(services.postgres?.healthcheck?.test).toEqual(expect.arrayContaining(['pg_isready']));
    expect(services.migrate?.restart).toBe('no');
    expect(services.migrate?.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    for (const name of ['api', 'worker']) {
      expect(services[name]?.depends_on, name).toEqual({
        postgres: { condition: 'service_healthy' },
        migrate: { condition: 'service_completed_successfully' },
      });
    }
  });

  it('gives a stopping process its drain and close, and turns the HTTP check off where nothing serves', () => {
    for (const name of ['api', 'worker']) {
      expect(seconds(services[name]?.stop_grace_period ?? '10s') * 1000, name).toBeGreaterThan(LONGEST_STOP_MS);
    }
    expect(services.worker?.healthcheck).toEqual({ disable: true });
    expect(services.migrate?.healthcheck).toEqual({ disable: true });
  });

  it('shares one data directory between the API and the workers (thumbnails)', () => {
    const dataDir = read('Dockerfile').match(/PATRON_DATA_DIR=(\S+)/)?.[1];
    for (const name of ['api', 'worker']) expect(services[name]?.volumes, name).toEqual([`patron-data:${dataDir}`]);
  });

  it("trusts X-Forwarded-For from HAProxy's fixed address alone, inside the network's subnet", () => {
    const proxy = services.api?.environment?.PATRON_TRUST_PROXY ?? '';
    const networks = services.haproxy?.networks as Record<string, { ipv4_address?: string }>;
    expect(networks.patron?.ipv4_address).toBe(proxy);
    const address = defaultOf(proxy) ?? '';
    const subnet = parseAddressRange(defaultOf(compose.networks.patron?.ipam.config[0]?.subnet ?? '') ?? '');
    expect(subnet).toBeDefined();
    expect(inAnyRange(address, subnet ? [subnet] : [])).toBe(true);
    expect(loadConfig({ PATRON_TRUST_PROXY: address }, '/').trustProxy).toEqual([address]);
  });

  it('mounts deploy/haproxy.cfg where the HAProxy image reads it, publishing the port it binds', () => {
    const haproxy = services.haproxy;
    expect(haproxy?.volumes).toEqual(['./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro']);
    const bind = read('deploy/haproxy.cfg').match(/^\s*bind :(\d+)$/m)?.[1];
    expect(haproxy?.ports).toEqual([`\${PATRON_HTTP_PORT:-8080}:${bind}`]);
  });
});

describe('deploy/haproxy.cfg', () => {
  const cfg = read('deploy/haproxy.cfg');
  const haproxy = findExecutable('haproxy');

  it('balances over the API replicas on their port, checking /ready?scope=node', () => {
    const port = read('Dockerfile').match(/\bPORT=(\d+)/)?.[1];
    expect(cfg).toMatch(new RegExp(`^\\s*server-template api \\d+ api:${port}$`, 'm'));
    expect(cfg).toMatch(/^\s*balance roundrobin$/m);
    expect(cfg).toMatch(/^\s*option httpchk GET \/ready\?scope=node$/m);
    expect(cfg).toMatch(/^\s*http-check expect status 200$/m);
    expect(cfg).toMatch(/^\s*option forwardfor$/m);
  });

  it("takes a draining node out well inside Patron's default drain", () => {
    const inter = seconds(cfg.match(/default-server .*\binter (\S+)/)?.[1] ?? '');
    const fall = Number(cfg.match(/default-server .*\bfall (\d+)/)?.[1]);
    const check = seconds(cfg.match(/^\s*timeout check (\S+)$/m)?.[1] ?? '');
    expect(inter * fall + check).toBeLessThan(DEFAULTS.shutdownDrainMs / 1000);
    expect(cfg).not.toMatch(/on-marked-down shutdown-sessions/);
  });

  it.skipIf(!haproxy)(`passes haproxy -c${haproxy ? '' : ' (skipped: haproxy is not installed)'}`, () => {
    const result = spawnSync(haproxy ?? 'haproxy', ['-c', '-f', path.join(ROOT, 'deploy/haproxy.cfg')], { encoding: 'utf8' });
    expect(result.stderr + result.stdout).toContain('Configuration file is valid');
    expect(result.status).toBe(0);
  });
});

describe('deploy/systemd', () => {
  const DIR = 'deploy/systemd';
  const units = fs.readdirSync(path.join(ROOT, DIR)).filter((f) => f.endsWith('.service'));
  const systemdAnalyze = findExecutable('systemd-analyze');

  /** key → values (a key may repeat), of the [Service] and [Unit] sections alike. */
  function settings(unit: string): Map<string, string[]> {
    const map = new Map<string, string[]>();
    for (const line of read(path.join(DIR, unit)).split('\n')) {
      const match = /^([A-Za-z]+)=(.*)$/.exec(line.trim());
      if (match) map.set(match[1] ?? '', [...(map.get(match[1] ?? '') ?? []), match[2] ?? '']);
    }
    return map;
  }
  const only = (unit: string, key: string): string => {
    const values = settings(unit).get(key) ?? [];
    expect(values, `${unit} ${key}`).toHaveLength(1);
    return values[0] ?? '';
  };

  it('starts migrate, serve --no-worker and worker with commands the CLI accepts', () => {
    const commands = Object.fromEntries(units.map((unit) => [unit, parseCommand(only(unit, 'ExecStart').split(/\s+/).slice(2))]));
    expect(commands).toEqual<Record<string, Command>>({
      'patron-migrate.service': { kind: 'migrate' },
      'patron-serve@.service': { kind: 'serve', worker: false },
      'patron-worker@.service': { kind: 'worker' },
    });
  });

  it('reads an environment file and sets only variables that config.ts reads', () => {
    for (const unit of units) {
      expect(only(unit, 'EnvironmentFile'), unit).toBe('/etc/patron/patron.env');
      const names = (settings(unit).get('Environment') ?? []).map((pair) => pair.split('=')[0] ?? '');
      expect(
        names.filter((name) => !CONFIG_VARIABLES.has(name)),
        unit,
      ).toEqual([]);
    }
  });

  it('runs hardened, with the data directory the one writable place', () => {
    for (const unit of units) {
      const s = settings(unit);
      const dataDir = (s.get('Environment') ?? []).find((e) => e.startsWith('PATRON_DATA_DIR='))?.split('=')[1] ?? '/var/lib/patron';
      expect(only(unit, 'User'), unit).toBe('patron');
      expect(only(unit, 'NoNewPrivileges'), unit).toBe('yes');
      expect(only(unit, 'ProtectSystem'), unit).toBe('strict');
      expect(only(unit, 'PrivateTmp'), unit).toBe('yes');
      expect(only(unit, 'ReadWritePaths'), unit).toBe(dataDir);
      expect(only(unit, 'CapabilityBoundingSet'), unit).toBe('');
      // V8 compiles to memory it then executes: MemoryDenyWriteExecute would stop node.
      expect(s.has('MemoryDenyWriteExecute'), unit).toBe(false);
    }
  });

  it('waits for the migration and gives a stopping process its drain and close', () => {
    for (const unit of ['patron-serve@.service', 'patron-worker@.service']) {
      expect(only(unit, 'Requires'), unit).toBe('patron-migrate.service');
      expect(only(unit, 'After'), unit).toContain('patron-migrate.service');
      expect(only(unit, 'Restart'), unit).toBe('on-failure');
      expect(only(unit, 'KillSignal'), unit).toBe('SIGTERM');
      expect(seconds(only(unit, 'TimeoutStopSec')) * 1000, unit).toBeGreaterThan(LONGEST_STOP_MS);
    }
    expect(only('patron-migrate.service', 'Type')).toBe('oneshot');
    expect(settings('patron-serve@.service').get('Environment')).toContain('PORT=%i');
  });

  it.skipIf(!systemdAnalyze)(`passes systemd-analyze verify${systemdAnalyze ? '' : ' (skipped: systemd-analyze is not installed)'}`, () => {
    // A copy whose ExecStart names this machine's node: verify checks that the program exists,
    // and the units name Debian's /usr/bin/node.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patron-units-'));
    try {
      for (const unit of units) {
        const text = read(path.join(DIR, unit)).replaceAll('/usr/bin/node ', `${process.execPath} `);
        fs.writeFileSync(path.join(dir, unit), text);
      }
      const instances = units.map((unit) => path.join(dir, unit.replace('@.', unit.includes('serve') ? '@8081.' : '@1.')));
      const result = spawnSync(systemdAnalyze ?? 'systemd-analyze', ['verify', ...instances], { encoding: 'utf8' });
      // verify exits 0 on a key it ignores; any word about our units is a fault.
      const aboutOurs = `${result.stdout}${result.stderr}`.split('\n').filter((line) => /patron-/.test(line));
      expect(aboutOurs).toEqual([]);
      expect(result.status).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
