import type { Transaction } from 'kysely';
import { toFlag } from '../../db/dialect.js';
import type { Database } from '../../db/types.js';
import type { IdentityService } from '../identity/index.js';
import { IDENTIFIER_FIELDS } from '../identity/index.js';
import * as repo from './audience.repo.js';
import type { ChunkReport, LogError, LogWarning } from './domain/import-log.js';
import { checkRecord, type AudienceFields, type AudienceRecord, type RecordContext } from './domain/record.js';
import * as segmentsRepo from './segments.repo.js';
import type { SegmentsService } from './segments.service.js';

/**
 * One batch of an import (a few stored chunks), stored SET-WISE: a fixed number of
 * statements whatever the batch holds (on PostgreSQL every statement is a round trip, so
 * per-record statements would cap the import at a few thousand records a second; slices
 * of at most 128 rows aside, db/statement-slices.ts). In order, in the caller's
 * transaction, after the records were checked outside it:
 *
 * 1. identity resolves every accepted record at once (identity.resolveBatch: one read,
 *    one lock, one insert of new profiles, one rewrite of changed ones, and the rare
 *    merges), so the same email twice, or an email tracking already knows, is one profile;
 * 2. one multi-row upsert of the attributes, the records of one profile folded first;
 * 3. one multi-row upsert of the push tokens;
 * 4. with a segment: one read that it still exists, one multi-row insert of members.
 */

export interface CheckedBatch {
  readonly accepted: readonly { readonly index: number; readonly record: AudienceRecord }[];
  readonly report: ChunkReport;
  readonly records: number;
}

/**
 * Parses stored chunks (each the records' JSON separated by commas) and checks each
 * record; pure apart from JSON.parse. Each chunk is parsed on its own, so that no string
 * larger than a chunk is ever built.
 */
export function checkBatch(
  chunks: readonly { readonly body: Buffer; readonly first_index: number }[],
  context: RecordContext,
): CheckedBatch {
  const accepted: { index: number; record: AudienceRecord }[] = [];
  const skipped: LogError[] = [];
  const warnings: LogWarning[] = [];
  const unknown: string[] = [];
  let records = 0;
  for (const chunk of chunks) {
    const raw = JSON.parse(`[${chunk.body.toString('utf8')}]`) as unknown[];
    records += raw.length;
    raw.forEach((value, offset) => {
      const index = chunk.first_index + offset;
      const check = checkRecord(value, context);
      if (check.kind === 'skipped') {
        skipped.push({ index, reason: check.reason, message: check.message });
        return;
      }
      accepted.push({ index, record: check.record });
      for (const problem of check.dropped) warnings.push({ index, field: problem.field, message: problem.reason });
      unknown.push(...check.unknown);
    });
  }
  return { accepted, report: { skipped, warnings, unknown }, records };
}

export interface StoredBatch {
  readonly report: ChunkReport;
  readonly profilesCreated: number;
}

export interface StoreContext {
  readonly identity: IdentityService;
  readonly segments: Pick<SegmentsService, 'addMembers'>;
  readonly now: number;
  readonly segmentId: number | null;
}

export async function storeBatch(
  trx: Transaction<Database>,
  shopId: string,
  batch: CheckedBatch,
  context: StoreContext,
): Promise<StoredBatch> {
  const warnings = [...batch.report.warnings];
  if (batch.accepted.length === 0) return { report: batch.report, profilesCreated: 0 };

  const plan = await context.identity.resolveBatch(
    shopId,
    batch.accepted.map(({ record }) => ({
      identifiers: record.identifiers,
      ...(Object.keys(record.properties).length > 0 ? { properties: record.properties } : {}),
    })),
    trx,
  );
  plan.ignored.forEach((ignored, i) => {
    const { index } = batch.accepted[i] as CheckedBatch['accepted'][number];
    for (const entry of ignored) {
      const message =
        entry.reason === 'held_by_other_profile'
          ? 'is held by another profile, which holds different identifiers; it stays there'
          : 'differs from the one the profile holds; the profile keeps its own';
      warnings.push({ index, field: IDENTIFIER_FIELDS[entry.kind], message });
    }
  });

  const attributes = new Map<number, AudienceFields>();
  const tokens = new Map<string, repo.PushTokenRow>();
  batch.accepted.forEach(({ record }, i) => {
    const profileId = plan.profileIds[i] as number;
    if (Object.keys(record.fields).length > 0) {
      // Later records of one profile win field by field, as if imported one after another.
      attributes.set(profileId, { ...attributes.get(profileId), ...record.fields });
    }
    if (record.pushToken) {
      const { token, platform } = record.pushToken;
      tokens.set(token, { shop_id: shopId, token, platform, profile_id: profileId, created_at: context.now, updated_at: context.now });
    }
  });
  await repo.upsertAttributes(
    trx,
    [...attributes].map(([profileId, fields]) => toAttributesRow(shopId, profileId, fields, context.now)),
  );
  await repo.upsertPushTokens(trx, [...tokens.values()]);

  if (context.segmentId !== null) {
    if (await segmentsRepo.findSegment(trx, shopId, context.segmentId)) {
      await context.segments.addMembers(trx, shopId, context.segmentId, plan.profileIds, context.now);
    } else {
      const first = batch.accepted[0] as CheckedBatch['accepted'][number];
      warnings.push({
        index: first.index,
        field: 'segment_id',
        message: `segment ${context.segmentId} was deleted; the records from here on were imported without it`,
      });
    }
  }
  return { report: { ...batch.report, warnings }, profilesCreated: plan.creates.length };
}

export function toAttributesRow(shopId: string, profileId: number, f: AudienceFields, now: number): repo.AttributesRow {
  const flag = (value: boolean | undefined) => (value === undefined ? null : toFlag(value));
  return {
    shop_id: shopId,
    profile_id: profileId,
    first_name: f.first_name ?? null,
    middle_name: f.middle_name ?? null,
    last_name: f.last_name ?? null,
    gender: f.gender ?? null,
    birthday: f.birthday ?? null,
    location: f.location ?? null,
    loyalty_card_location: f.loyalty_card_location ?? null,
    loyalty_status: f.loyalty_status ?? null,
    fb_id: f.fb_id ?? null,
    vk_id: f.vk_id ?? null,
    kids: f.kids === undefined ? null : JSON.stringify(f.kids),
    auto: f.auto === undefined ? null : JSON.stringify(f.auto),
    age: f.age ?? null,
    loyalty_bonuses: f.loyalty_bonuses ?? null,
    loyalty_bonuses_to_next_level: f.loyalty_bonuses_to_next_level ?? null,
    bought_something: flag(f.bought_something),
    email_bulk: flag(f.email_bulk),
    email_chain: flag(f.email_chain),
    email_transactional: flag(f.email_transactional),
    sms_bulk: flag(f.sms_bulk),
    sms_chain: flag(f.sms_chain),
    sms_transactional: flag(f.sms_transactional),
    created_at: now,
    updated_at: now,
  };
}
