import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { AppError } from '../../errors.js';
import type { ShopsService } from '../shops/index.js';
import { normalizeCode } from './domain/codes.js';
import * as repo from './certificates.repo.js';
import { nextId } from './promotions.repo.js';

export interface CertificatesDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly shops: Pick<ShopsService, 'requireShop'>;
}

export interface Certificate {
  readonly id: number;
  readonly code: string;
  readonly poolId: number | null;
  /** Minor units: the face value. */
  readonly amount: number;
  /** Minor units not spent yet (held amounts included). */
  readonly balance: number;
  /** Minor units held by orders not yet confirmed. */
  readonly held: number;
  readonly expiresAt: number | null;
  readonly createdAt: number;
}

export type { CertificateStatus } from './certificates.repo.js';

export interface CertificatePool {
  readonly id: number;
  readonly name: string;
  readonly createdAt: number;
}

export const CERTIFICATE_NOT_FOUND = 'Certificate not found.';

/** Gift certificates and their pools, and the checkout's reads of them (docs/promotions.md); the checkout's holds are CertificateHolds. */
export class CertificatesService {
  constructor(private readonly deps: CertificatesDeps) {}

  private get db() {
    return this.deps.db.db;
  }

  async createPool(shopId: string, name: string): Promise<{ id: number; name: string }> {
    await this.deps.shops.requireShop(shopId);
    const now = this.deps.clock.now();
    const id = await this.db.transaction().execute(async (trx) => {
      const next = await nextId(trx, shopId, 'pool');
      await repo.insertPool(trx, shopId, next, name, now);
      return next;
    });
    await this.deps.db.durable();
    return { id, name };
  }

  /** A certificate worth `amount` minor units; its pool, when named, must exist; a taken code: CONFLICT. */
  async createCertificate(
    shopId: string,
    input: { code: string; amount: number; poolId?: number | undefined; expiresAt?: number | undefined },
  ): Promise<Certificate> {
    await this.deps.shops.requireShop(shopId);
    const code = normalizeCode(input.code);
    if (code === null)
      throw new AppError('VALIDATION_FAILED', 'Field `code` must be 1 to 64 letters, digits, `-` or `_`.', { field: 'code' });
    const now = this.deps.clock.now();
    if (input.expiresAt !== undefined && input.expiresAt <= now) {
      throw new AppError('VALIDATION_FAILED', 'Field `expires_at` must be in the future.', { field: 'expires_at' });
    }
    if (input.poolId !== undefined && !(await repo.findPool(this.db, shopId, input.poolId))) {
      throw new AppError('VALIDATION_FAILED', 'Field `pool_id` must name a certificate pool of the shop.', { field: 'pool_id' });
    }
    const created = await this.db.transaction().execute(async (trx) => {
      const row: repo.CertificateRow = {
        shop_id: shopId,
        id: await nextId(trx, shopId, 'certificate'),
        code,
        pool_id: input.poolId ?? null,
        amount: input.amount,
        balance: input.amount,
        held: 0,
        expires_at: input.expiresAt ?? null,
        created_at: now,
        updated_at: now,
      };
      return (await repo.insertCertificate(trx, row)) ? row : undefined;
    });
    if (!created) throw new AppError('CONFLICT', `Certificate \`${code}\` already exists.`);
    await this.deps.db.durable();
    return toCertificate(created);
  }

  async getCertificate(shopId: string, text: string): Promise<Certificate> {
    await this.deps.shops.requireShop(shopId);
    const code = normalizeCode(text);
    const row = code === null ? undefined : await repo.findByCode(this.db, shopId, code);
    if (!row) throw new AppError('NOT_FOUND', CERTIFICATE_NOT_FOUND);
    return toCertificate(row);
  }

  /** A page of certificates, newest first, after the certificate `beforeId`; `more` when another page follows. */
  async listCertificates(
    shopId: string,
    filter: { poolId?: number | undefined; status?: repo.CertificateStatus | undefined },
    beforeId: number | null,
    limit: number,
  ): Promise<{ items: Array<Certificate & { status: repo.CertificateStatus }>; more: boolean }> {
    await this.deps.shops.requireShop(shopId);
    const now = this.deps.clock.now();
    const rows = await repo.listCertificates(this.db, shopId, { ...filter, now }, beforeId, limit + 1);
    return {
      items: rows.slice(0, limit).map((row) => {
        const c = toCertificate(row);
        return { ...c, status: certificateStatus(c, now) };
      }),
      more: rows.length > limit,
    };
  }

  /** A page of the shop's pools by id, after the pool `afterId`. */
  async listPools(shopId: string, afterId: number | null, limit: number): Promise<{ items: CertificatePool[]; more: boolean }> {
    await this.deps.shops.requireShop(shopId);
    const rows = await repo.listPools(this.db, shopId, afterId, limit + 1);
    return { items: rows.slice(0, limit).map((r) => ({ id: r.id, name: r.name, createdAt: r.created_at })), more: rows.length > limit };
  }

  /** The checkout's loader: the certificates among `texts` that exist, by their stored code. */
  async findCertificates(shopId: string, texts: readonly string[]): Promise<Map<string, Certificate>> {
    const codes = [...new Set(texts.map(normalizeCode).filter((c): c is string => c !== null))];
    const rows = await repo.findByCodes(this.db, shopId, codes);
    return new Map(rows.map((r) => [r.code, toCertificate(r)]));
  }

  /** What an order holds of each certificate, by code. */
  async heldOf(shopId: string, orderId: string): Promise<Map<string, number>> {
    return repo.heldOf(this.db, shopId, orderId);
  }
}

function certificateStatus(c: Certificate, now: number): repo.CertificateStatus {
  if (c.balance === 0) return 'spent';
  return c.expiresAt !== null && c.expiresAt <= now ? 'expired' : 'active';
}

function toCertificate(row: repo.CertificateRow): Certificate {
  return {
    id: Number(row.id),
    code: row.code,
    poolId: row.pool_id === null ? null : Number(row.pool_id),
    amount: Number(row.amount),
    balance: Number(row.balance),
    held: Number(row.held),
    expiresAt: row.expires_at === null ? null : Number(row.expires_at),
    createdAt: Number(row.created_at),
  };
}
