import { buildApp } from './app.js';
import { processClock } from './clock.js';
import type { Config } from './config.js';
import type { DbHandle } from './db/create-db.js';
import { FetchRuleAgreement, FetchRuleConflict } from './modules/system/fetch-rule.js';
import { SecretKeyMismatch } from './modules/system/secret-key-check.js';
import { DatabaseNewerThanCodeError } from './db/migrate.js';
import { InstallationService } from './modules/system/installation.service.js';
import { describeDatabase, openMigratedDatabase, secretKeyCheck, TransactionsDoNotHoldError } from './process/database.js';
import { formatWelcome, localBaseUrl, prepareStartup } from './process/first-start.js';
import { startJobRunner } from './process/job-runner.js';
import { JobThread } from './process/job-thread.js';
import { createLogger, loggerOptions, type Logger } from './process/logger.js';
import { closeResources, installGracefulShutdown, type GracefulShutdown, type ProcessResources } from './process/shutdown.js';
import { PATRON_VERSION } from './version.js';

/**
 * The long-running processes: `patron serve` (HTTP, plus a job thread unless told not to)
 * and `patron worker` (job workers alone). Start order: database → migrations → admin
 * token and first-start demo → app → job runner → listen. SIGTERM/SIGINT close them in
 * reverse (src/process/shutdown.ts).
 */

export async function runServer(config: Config, options: { worker: boolean }): Promise<void> {
  const log = createLogger(config.logLevel);
  // Only the HTTP server drains: a balancer has to see its /ready fail before it stops accepting.
  await runProcess(log, { drainMs: config.shutdownDrainMs }, async (resources, shutdown) => {
    log.info({ version: PATRON_VERSION, database: describeDatabase(config) }, 'Starting Patron');
    const clock = processClock(config.testClockFile);
    if (config.testClockFile !== undefined)
      log.warn({ file: config.testClockFile }, 'The clock runs ahead by the offset in PATRON_TEST_CLOCK_FILE: for tests only');
    if (config.insecureTestPasswordHashing)
      log.warn('Passwords are hashed at a test cost (PATRON_INSECURE_TEST_PASSWORD_HASHING): for tests only, never for real users');
    const { db, applied } = await openMigratedDatabase(config);
    resources.db = db;
    if (applied.length > 0) log.info({ applied }, 'Applied database migrations');
    await checkSecretKey(config, db);
    resources.fetchRule = await joinFetchRule(config, db);

    const app = await buildApp({ config, db, clock, logger: loggerOptions(config.logLevel) });
    resources.app = app;
    resources.drain = app.drain;
    resources.tracking = app.services.tracking;
    const facts = await prepareStartup(app.services, new InstallationService({ db, clock }));
    // PostgreSQL: the admin changes made through the other processes reach this thread's caches as they
    // commit (docs/settings-caches.md). The job thread needs no listener: it reads the settings version per claim.
    resources.settingsNotifications = app.services.settingsNotifications;
    await app.services.settingsNotifications.start(log);

    if (options.worker) {
      // The jobs run in a thread of their own, off the requests' event loop (process/job-thread.ts).
      resources.runner = await JobThread.start({
        config,
        queue: app.services.jobs,
        writeLock: db.writeLock,
        log,
        onFailure: () => shutdown.begin('The job thread failed', 1),
      });
    }

    await app.listen({ port: config.port, host: config.host });
    const baseUrl = localBaseUrl(app.server.address(), config.host);
    log.info({ url: baseUrl, worker: options.worker }, 'Patron is listening');
    const welcome = formatWelcome(facts, baseUrl);
    // Plain text on purpose: the token and curl lines are for a person, not a log shipper.
    if (welcome) process.stdout.write(welcome);
  });
}

export async function runWorker(config: Config): Promise<void> {
  const log = createLogger(config.logLevel);
  await runProcess(log, {}, async (resources) => {
    log.info({ version: PATRON_VERSION, database: describeDatabase(config) }, 'Starting Patron job worker');
    const { db, applied } = await openMigratedDatabase(config);
    resources.db = db;
    if (applied.length > 0) log.info({ applied }, 'Applied database migrations');
    await checkSecretKey(config, db);
    resources.fetchRule = await joinFetchRule(config, db);

    const { services, runner } = await startJobRunner({ config, db, clock: processClock(config.testClockFile), log });
    resources.runner = runner;
    // Chains a failed job or an older version left stopped (docs/loyalty.md, "Upkeep").
    await services.loyaltyUpkeep.resumeChains();
    // The audit log's daily retention run (docs/audit-log.md, "Retention"): one job a day, whichever process queues it.
    await services.audit.schedulePrune();
    // Each shop's daily rebuild of its recommendation models (docs/recommendations.md, "Models"): one link per shop and day.
    await services.recommendationModels.scheduleRebuilds();
    log.info(
      { workerId: runner.workerId, concurrency: config.workerConcurrency, deliveryConcurrency: config.deliveryConcurrency },
      'Job worker started',
    );
  });
}

/**
 * A process may run the downloads and deliveries the others enqueued: they must share one
 * PATRON_FETCH_ALLOW_PRIVATE, or this one does not start (modules/system/fetch-rule.ts).
 */
async function joinFetchRule(config: Config, db: DbHandle): Promise<FetchRuleAgreement> {
  const agreement = new FetchRuleAgreement({ db, clock: processClock(config.testClockFile), rule: config.fetchAllowPrivate });
  await agreement.join();
  return agreement;
}

/** Every process on one database must hold the same secret key, or it does not start (modules/system/secret-key-check.ts). */
async function checkSecretKey(config: Config, db: DbHandle): Promise<void> {
  await secretKeyCheck(config, db, processClock(config.testClockFile)).verify();
}

/** A refusal to start whose message says what to do: logged as the message itself. */
function isStartRefusal(error: unknown): error is Error {
  return (
    error instanceof DatabaseNewerThanCodeError ||
    error instanceof TransactionsDoNotHoldError ||
    error instanceof SecretKeyMismatch ||
    error instanceof FetchRuleConflict
  );
}

/** Installs the signal handlers, then starts; a failed start closes what it opened and exits 1. */
async function runProcess(
  log: Logger,
  options: { drainMs?: number },
  start: (resources: ProcessResources, shutdown: GracefulShutdown) => Promise<void>,
): Promise<void> {
  const resources: ProcessResources = {};
  const shutdown = installGracefulShutdown(resources, { log, ...options });
  try {
    await start(resources, shutdown);
  } catch (error) {
    // A signal during start-up closes the database under the start sequence; that
    // failure is the shutdown's, which exits on its own.
    if (shutdown.started) return;
    if (isStartRefusal(error)) log.fatal(`Patron could not start: ${error.message}`);
    else log.fatal({ err: error }, 'Patron could not start');
    await closeResources(resources, log);
    process.exit(1);
  }
}
