import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Apple Wallet passes and their device registrations (src/modules/messaging/wallet,
 * docs/messaging-wallet.md).
 * - `wallet_passes`: one row per issued pass. The serial number is random, so the PassKit
 *   web service's paths name no profile and cannot be guessed; the authentication token
 *   is kept as its SHA-256 only. A profile may hold several passes (one per issue).
 * - `wallet_registrations`: the devices that asked for a pass's updates (PassKit
 *   "Register a Pass for Update Notifications"); the primary key is the protocol's
 *   identity of a registration, so a repeated registration is the same row.
 * No foreign key to profiles: merges move the rows (the identity merge participant).
 */
export function wallet(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('wallet_passes')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('serial_number', 'text', (c) => c.notNull())
        .addColumn('pass_type_id', 'text', (c) => c.notNull())
        .addColumn('profile_id', 'bigint', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull())
        .addColumn('message', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('wallet_passes_pk', ['shop_id', 'serial_number'])
        .execute();
      // A profile's passes: a message updates them all; merges move them.
      await db.schema.createIndex('wallet_passes_profile').on('wallet_passes').columns(['shop_id', 'profile_id']).execute();

      await db.schema
        .createTable('wallet_registrations')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('device_library_id', 'text', (c) => c.notNull())
        .addColumn('pass_type_id', 'text', (c) => c.notNull())
        .addColumn('serial_number', 'text', (c) => c.notNull())
        .addColumn('push_token', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('wallet_registrations_pk', ['shop_id', 'device_library_id', 'pass_type_id', 'serial_number'])
        .execute();
      // A pass's devices (the pushes of a message) and a dead push token's registrations.
      await db.schema.createIndex('wallet_registrations_serial').on('wallet_registrations').columns(['shop_id', 'serial_number']).execute();
      await db.schema
        .createIndex('wallet_registrations_push_token')
        .on('wallet_registrations')
        .columns(['shop_id', 'push_token'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('wallet_registrations').execute();
      await db.schema.dropTable('wallet_passes').execute();
    },
  };
}
