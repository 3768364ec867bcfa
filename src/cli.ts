#!/usr/bin/env node
import { ConfigError, loadConfig, type Config } from './config.js';
import { isAppError } from './errors.js';
import { parseCommand, USAGE, UsageError, type Command } from './process/cli-args.js';
import { AdminTokenFromEnvironmentError } from './process/errors.js';
import { PATRON_VERSION } from './version.js';

/**
 * The `patron` command. Exit codes: 0 done, 1 failed (bad configuration, database
 * unreachable, refused), 2 bad usage (unknown command or option, invalid argument).
 */

const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

// The server and the commands are imported when needed, so that --help, bad usage and
// configuration errors answer without loading Fastify and the database drivers.
async function dispatch(command: Command, config: Config): Promise<string | undefined> {
  switch (command.kind) {
    case 'serve':
      await (await import('./main.js')).runServer(config, { worker: command.worker });
      return undefined;
    case 'worker':
      await (await import('./main.js')).runWorker(config);
      return undefined;
    case 'migrate':
      return (await import('./process/commands.js')).migrateCommand(config);
    case 'shop-create':
      return (await import('./process/commands.js')).shopCreateCommand(config, command);
    case 'demo':
      return (await import('./process/commands.js')).demoCommand(config);
    case 'admin-token-rotate':
      return (await import('./process/commands.js')).adminTokenRotateCommand(config);
    case 'secret-key-adopt':
      return (await import('./process/commands.js')).secretKeyAdoptCommand(config);
    case 'user-create':
      return (await import('./process/commands.js')).userCreateCommand(config, command);
    case 'user-reset-password':
      return (await import('./process/commands.js')).userResetPasswordCommand(config, command);
    case 'import-feed':
      return (await import('./process/import-feed.js')).importFeedCommand(config, command);
    case 'import-audience':
      return (await import('./process/import-audience.js')).importAudienceCommand(config, command);
    case 'recommendations-evaluate':
      return (await import('./process/recommendations-evaluate.js')).recommendationsEvaluateCommand(config, command);
    case 'backup':
      return (await import('./process/backup.js')).backupCommand(config, command);
    case 'help':
    case 'version':
      return undefined;
  }
}

async function main(argv: readonly string[]): Promise<void> {
  let command: Command;
  try {
    command = parseCommand(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n\n${USAGE}`);
    process.exit(EXIT_USAGE);
  }
  if (command.kind === 'help') return void process.stdout.write(USAGE);
  if (command.kind === 'version') return void process.stdout.write(`${PATRON_VERSION}\n`);

  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(EXIT_FAILED);
  }

  try {
    const output = await dispatch(command, config);
    if (output !== undefined) process.stdout.write(output);
  } catch (error) {
    // A service's refusal (an invalid currency, say) is the caller's input: usage.
    if (isAppError(error) && error.code === 'VALIDATION_FAILED') {
      process.stderr.write(`${error.message}\n`);
      process.exit(EXIT_USAGE);
    }
    // A refusal of the input given (an email taken, an unknown user): one line, exit 1.
    if (isAppError(error) && (error.code === 'CONFLICT' || error.code === 'NOT_FOUND')) {
      process.stderr.write(`${error.message}\n`);
      process.exit(EXIT_FAILED);
    }
    if (error instanceof AdminTokenFromEnvironmentError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(EXIT_FAILED);
    }
    throw error;
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`patron: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(EXIT_FAILED);
});
