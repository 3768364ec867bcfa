import { systemClock } from '../clock.js';
import type { Config } from '../config.js';
import { createServices, type Services } from '../services.js';
import { describeDatabase, openMigratedDatabase, secretKeyCheck } from './database.js';
import { seedDemo } from './demo.js';
import { AdminTokenFromEnvironmentError } from './errors.js';
import { inviteLink } from './first-start.js';
import { AppError } from '../errors.js';
import type { AdminRole } from '../modules/admin-users/index.js';

/**
 * The one-shot `patron` commands. Each opens the database (migrating it, so that they
 * work on an empty data dir), does one thing through the services, closes the database
 * and returns the text to print.
 */

async function withServices<T>(config: Config, run: (services: Services, applied: readonly string[]) => T | Promise<T>): Promise<T> {
  const { db, applied } = await openMigratedDatabase(config);
  try {
    return await run(createServices({ config, db, clock: systemClock }), applied);
  } finally {
    await db.destroy();
  }
}

export async function migrateCommand(config: Config): Promise<string> {
  return withServices(config, (_services, applied) =>
    applied.length === 0
      ? `Database is up to date (${describeDatabase(config)}).\n`
      : `Applied ${applied.length} migration(s) to ${describeDatabase(config)}:\n${applied.map((m) => `  ${m}\n`).join('')}`,
  );
}

export async function shopCreateCommand(config: Config, input: { name: string; currency?: string; timezone?: string }): Promise<string> {
  return withServices(config, async (services) => {
    const { shop, secret } = await services.shops.createShop(input);
    return [
      `Created shop "${shop.name}" (${shop.currency}, ${shop.timezone}).`,
      `shop_id      ${shop.shopId}`,
      `shop_secret  ${secret}`,
      'The secret is shown only this once: store it now.',
      '',
    ].join('\n');
  });
}

export async function demoCommand(config: Config): Promise<string> {
  return withServices(config, async (services) => {
    const outcome = await seedDemo(services);
    if (outcome.kind === 'exists') {
      return `The demo shop already exists: shop_id ${outcome.shop.shopId} (nothing changed).\n`;
    }
    return [
      `Created the demo shop "${outcome.shop.name}" with sample data: ${outcome.steps.join(', ') || 'none yet'}.`,
      `shop_id      ${outcome.shop.shopId}`,
      `shop_secret  ${outcome.secret}`,
      'The secret is shown only this once: store it now.',
      '',
    ].join('\n');
  });
}

export async function adminTokenRotateCommand(config: Config): Promise<string> {
  if (config.adminToken) throw new AdminTokenFromEnvironmentError();
  return withServices(config, async (services) => {
    const token = await services.adminToken.rotate();
    return [
      'New admin token (shown only this once: store it now):',
      `  ${token}`,
      'The old token stops working at once, in every running process.',
      '',
    ].join('\n');
  });
}

export async function userCreateCommand(
  config: Config,
  input: { email: string; role: AdminRole; shops: readonly string[] | null },
): Promise<string> {
  return withServices(config, async (services) => {
    const { user, inviteToken } = await services.adminAccounts.createUser(input);
    return [
      `Invited ${user.email} as ${user.role}${user.shops === null ? '' : ` of ${user.shops.length} shop(s)`}.`,
      'Invitation link (shown only this once, valid 7 days):',
      `  ${inviteLink(config.publicUrl, inviteToken!)}`,
      '',
    ].join('\n');
  });
}

export async function userResetPasswordCommand(config: Config, input: { email: string }): Promise<string> {
  return withServices(config, async (services) => {
    const user = await services.adminAccounts.findUserByEmail(input.email);
    if (user === undefined) throw new AppError('NOT_FOUND', `No admin user has the email ${input.email}.`);
    const token = await services.adminAccounts.issueInvitation(user.id, { revokeSessions: true });
    return [
      `Signed ${user.email} out of every session.`,
      'Link to set a new password (shown only this once, valid 7 days):',
      `  ${inviteLink(config.publicUrl, token)}`,
      '',
    ].join('\n');
  });
}

/** `patron secret-key adopt`: this process's key becomes the one every process must hold (docs/scaling.md). */
export async function secretKeyAdoptCommand(config: Config): Promise<string> {
  const { db } = await openMigratedDatabase(config);
  try {
    await secretKeyCheck(config, db, systemClock).adopt();
  } finally {
    await db.destroy();
  }
  const source = config.secretKey !== undefined ? 'PATRON_SECRET_KEY' : 'the key file in PATRON_DATA_DIR';
  return `Recorded the key of ${source} as the secret key of ${describeDatabase(config)}: processes with another key will not start.\nSecrets stored under a previous key cannot be read: enter them again.\n`;
}
