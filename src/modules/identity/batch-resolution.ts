import type { Transaction } from 'kysely';
import type { Database } from '../../db/types.js';
import { IDENTIFIER_FIELDS, IDENTIFIER_KINDS, type IdentifierField } from './domain/identifiers.js';
import { planBatch, type BatchPerson, type BatchPlan, type ProfileState } from './domain/plan-batch.js';
import { parseJsonObject } from './domain/profile.js';
import { generateProfileIdRange } from './ids.js';
import * as repo from './identity.repo.js';
import { LostRace, ResolutionRun, type MergeParticipant } from './resolution-run.js';

/**
 * Carries out a batch plan (domain/plan-batch.ts) in the caller's transaction with a
 * fixed number of statements whatever the batch size, merges aside (each is the usual
 * merge, participants included): one read of every profile holding an identifier of the
 * batch, one lock of the stored profiles it changes (compared with what was read, as in
 * a single resolution), the merges, one multi-row insert of the new profiles, one
 * multi-row rewrite of the changed ones. A lost race throws LostRace: the caller rolls
 * its transaction back and runs the batch again.
 */
export async function executeBatch(
  trx: Transaction<Database>,
  shopId: string,
  people: readonly BatchPerson[],
  context: { readonly now: number; readonly participants: readonly MergeParticipant[] },
): Promise<BatchPlan> {
  const sets: Partial<Record<IdentifierField, string[]>> = {};
  for (const person of people) {
    for (const kind of IDENTIFIER_KINDS) {
      const value = person.identifiers[kind];
      if (value !== undefined) (sets[IDENTIFIER_FIELDS[kind]] ??= []).push(value);
    }
  }
  const rows = await repo.findLiveProfilesByIdentifierSets(trx, shopId, sets);
  const read = new Map(rows.map((row) => [row.id, row]));
  const plan = planBatch(
    people,
    rows.map((row) => ({
      id: row.id,
      createdAt: row.created_at,
      identifiers: {
        externalId: row.external_id,
        loyaltyId: row.loyalty_id,
        email: row.email,
        phone: row.phone,
        telegramId: row.telegram_id,
      },
      properties: parseJsonObject(row.properties),
    })),
    consecutiveIds(generateProfileIdRange(people.length)),
  );

  const touched = [...new Set([...plan.updates.map((u) => u.id), ...plan.merges.map((m) => m.fromProfileId)])];
  if (touched.length > 0) {
    const locked = await repo.lockLiveProfiles(trx, shopId, touched, context.now);
    if (locked.length !== touched.length || locked.some((row) => !sameIdentifiers(row, read.get(row.id)))) {
      throw new LostRace();
    }
  }

  const run = new ResolutionRun(trx, shopId, context.now, context.participants);
  for (const merge of plan.merges) {
    await run.merge(merge.fromProfileId, merge.intoProfileId, merge.reason, { event: merge.event, merged: merge.merged });
  }

  const inserted = await repo.insertProfiles(
    trx,
    plan.creates.map((p) => toRow(shopId, p, context.now, context.now)),
  );
  // An identifier another transaction took since the read, or (rarely) a random id that is taken.
  if (inserted !== plan.creates.length) throw new LostRace();
  await repo.rewriteLockedProfiles(
    trx,
    plan.updates.map((p) => toRow(shopId, p, (read.get(p.id) as repo.ProfileRow).created_at, context.now)),
  );
  return plan;
}

function consecutiveIds(start: number): () => number {
  let next = start;
  return () => next++;
}

function toRow(shopId: string, profile: ProfileState, createdAt: number, now: number): repo.ProfileRow {
  const slots = profile.identifiers;
  return {
    shop_id: shopId,
    id: profile.id,
    email: slots.email,
    phone: slots.phone,
    external_id: slots.externalId,
    loyalty_id: slots.loyaltyId,
    telegram_id: slots.telegramId,
    properties: JSON.stringify(profile.properties),
    merged_into: null,
    created_at: createdAt,
    updated_at: now,
  };
}

function sameIdentifiers(a: repo.ProfileRow, b: repo.ProfileRow | undefined): boolean {
  return b !== undefined && IDENTIFIER_KINDS.every((kind) => a[IDENTIFIER_FIELDS[kind]] === b[IDENTIFIER_FIELDS[kind]]);
}
