import type { Kysely } from 'kysely';
import { bytesColumnType, type Dialect } from '../dialect.js';

/**
 * Audience import and segments (src/modules/audience, docs/audience.md; interface.md
 * endpoint 11 and "Audience user record").
 *
 * - `audience_sequences`: per-shop counters for the small integer ids operators and
 *   clients type (segment ids, import ids); a composite key cannot auto-increment on SQLite.
 * - `segments` and `segment_members`, keyed (shop_id, segment_id, profile_id); the second
 *   index answers "the segments of these profiles" and moves members on a merge.
 * - `custom_properties`: the property codes and types a shop defined in the admin API.
 *   Their values live in identity's `profiles.properties`, which merges already combine.
 * - `audience_profiles`: every other field of the record table, one typed column each
 *   (null = never given), so that later modules (messaging) can select on them.
 * - `profile_push_tokens`: a token belongs to one app install, hence to one profile; a
 *   profile has a token per device.
 * - `audience_imports` (the import log) and `audience_import_chunks`: the raw records of
 *   an import, stored before the request is answered, in chunks that the job processes in
 *   order; `next_chunk` is the cursor, advanced in the transaction that writes the chunk.
 *
 * The tables keyed by profile id have no foreign key to `profiles`: profiles are never
 * deleted (a merge leaves a tombstone, and the merge participant moves these rows), and
 * on PostgreSQL a key check per inserted row runs a plan cached by the connection, made
 * while `profiles` was still small (a sequential scan), which made a large import slower
 * with every batch. They reference the shop, which is what deletes them.
 */
export function audience(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('audience_sequences')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('last_id', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('audience_sequences_pk', ['shop_id', 'name'])
        .execute();

      await db.schema
        .createTable('segments')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('id', 'bigint', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('segments_pk', ['shop_id', 'id'])
        .execute();

      await db.schema
        .createTable('segment_members')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('segment_id', 'bigint', (c) => c.notNull())
        .addColumn('profile_id', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('segment_members_pk', ['shop_id', 'segment_id', 'profile_id'])
        .addForeignKeyConstraint('segment_members_segment_fk', ['shop_id', 'segment_id'], 'segments', ['shop_id', 'id'], (fk) =>
          fk.onDelete('cascade'),
        )
        .execute();
      await db.schema.createIndex('segment_members_shop_profile_idx').on('segment_members').columns(['shop_id', 'profile_id']).execute();

      await db.schema
        .createTable('custom_properties')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('name', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('custom_properties_pk', ['shop_id', 'code'])
        .execute();

      let attributes = db.schema
        .createTable('audience_profiles')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('profile_id', 'bigint', (c) => c.notNull());
      for (const column of TEXT_COLUMNS) attributes = attributes.addColumn(column, 'text');
      for (const column of INTEGER_COLUMNS) attributes = attributes.addColumn(column, 'bigint');
      await attributes
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('audience_profiles_pk', ['shop_id', 'profile_id'])
        .execute();

      await db.schema
        .createTable('profile_push_tokens')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('token', 'text', (c) => c.notNull())
        .addColumn('platform', 'text', (c) => c.notNull())
        .addColumn('profile_id', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('profile_push_tokens_pk', ['shop_id', 'token'])
        .execute();
      await db.schema
        .createIndex('profile_push_tokens_shop_profile_idx')
        .on('profile_push_tokens')
        .columns(['shop_id', 'profile_id'])
        .execute();

      await db.schema
        .createTable('audience_imports')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.shop_id').onDelete('cascade'))
        .addColumn('id', 'bigint', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('segment_id', 'bigint')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('received', 'bigint', (c) => c.notNull())
        .addColumn('chunks', 'bigint', (c) => c.notNull())
        .addColumn('next_chunk', 'bigint', (c) => c.notNull())
        .addColumn('processed', 'bigint', (c) => c.notNull())
        .addColumn('imported', 'bigint', (c) => c.notNull())
        .addColumn('skipped', 'bigint', (c) => c.notNull())
        .addColumn('profiles_created', 'bigint', (c) => c.notNull())
        // JSON documents of the log (modules/audience/domain/import-log.ts).
        .addColumn('log', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('started_at', 'bigint')
        .addColumn('finished_at', 'bigint')
        .addPrimaryKeyConstraint('audience_imports_pk', ['shop_id', 'id'])
        .execute();
      // Workers look imports up by status (stale uploads to clear), never across shops.
      await db.schema.createIndex('audience_imports_shop_status_idx').on('audience_imports').columns(['shop_id', 'status']).execute();

      await db.schema
        .createTable('audience_import_chunks')
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('import_id', 'bigint', (c) => c.notNull())
        .addColumn('seq', 'bigint', (c) => c.notNull())
        // Position of the chunk's first record in the import (0-based).
        .addColumn('first_index', 'bigint', (c) => c.notNull())
        .addColumn('records', 'integer', (c) => c.notNull())
        // The raw records, the bytes exactly as received: their JSON texts separated by
        // commas. Bytes, not text, so that a request's body is stored without being decoded.
        .addColumn('body', bytesColumnType(dialect), (c) => c.notNull())
        .addPrimaryKeyConstraint('audience_import_chunks_pk', ['shop_id', 'import_id', 'seq'])
        .addForeignKeyConstraint(
          'audience_import_chunks_import_fk',
          ['shop_id', 'import_id'],
          'audience_imports',
          ['shop_id', 'id'],
          (fk) => fk.onDelete('cascade'),
        )
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const table of [
        'audience_import_chunks',
        'audience_imports',
        'profile_push_tokens',
        'audience_profiles',
        'custom_properties',
        'segment_members',
        'segments',
        'audience_sequences',
      ]) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}

/** The record table's text fields; kids and auto are JSON arrays. */
const TEXT_COLUMNS = [
  'first_name',
  'middle_name',
  'last_name',
  'gender',
  'birthday',
  'location',
  'loyalty_card_location',
  'loyalty_status',
  'fb_id',
  'vk_id',
  'kids',
  'auto',
] as const;

/** Integers, and the flags as 0/1 (db/dialect.ts conventions). */
const INTEGER_COLUMNS = [
  'age',
  'loyalty_bonuses',
  'loyalty_bonuses_to_next_level',
  'bought_something',
  'email_bulk',
  'email_chain',
  'email_transactional',
  'sms_bulk',
  'sms_chain',
  'sms_transactional',
] as const;
