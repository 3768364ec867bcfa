import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { AppError } from '../../errors.js';
import type { ShopsService } from '../shops/index.js';
import { CATEGORY_TEXTS, isValidNpsCode, MAX_NAME_LENGTH, MAX_TEXT_LENGTH, type CategoryText } from './domain/nps.js';
import * as repo from './settings.repo.js';

export interface NpsSettingsDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly shops: Pick<ShopsService, 'requireShop'>;
}

export interface NpsChannel {
  readonly code: string;
  readonly name: string;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export type CategoryTexts = { readonly [K in CategoryText]: string | null };

export interface NpsCategory extends CategoryTexts {
  readonly code: string;
  readonly name: string;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export type CategoryInput = { readonly name: string } & { readonly [K in CategoryText]?: string | null };

/**
 * The shop's NPS channels (where a review comes from: `android_app`, `email`) and
 * categories (what it rates, with the question to ask each group and the thank-you text
 * to show it), by code (admin-api.md "NPS"; docs/nps.md).
 */
export class NpsSettingsService {
  constructor(private readonly deps: NpsSettingsDeps) {}

  private get db() {
    return this.deps.db.db;
  }

  async putChannel(shopId: string, code: string, input: { readonly name: string }): Promise<NpsChannel> {
    await this.deps.shops.requireShop(shopId);
    checkCode(code);
    const name = checkName(input.name);
    const now = this.deps.clock.now();
    const row = await repo.upsertChannel(this.db, { shop_id: shopId, code, name, created_at: now, updated_at: now });
    await this.deps.db.durable();
    return toChannel(row);
  }

  async listChannels(shopId: string): Promise<NpsChannel[]> {
    await this.deps.shops.requireShop(shopId);
    return (await repo.listChannels(this.db, shopId)).map(toChannel);
  }

  async deleteChannel(shopId: string, code: string): Promise<void> {
    await this.deps.shops.requireShop(shopId);
    if (!(await repo.deleteChannel(this.db, shopId, code))) throw new AppError('NOT_FOUND', `NPS channel \`${code}\` does not exist.`);
    await this.deps.db.durable();
  }

  async putCategory(shopId: string, code: string, input: CategoryInput): Promise<NpsCategory> {
    await this.deps.shops.requireShop(shopId);
    checkCode(code);
    const name = checkName(input.name);
    const texts = {} as Record<CategoryText, string | null>;
    for (const field of CATEGORY_TEXTS) {
      const value = input[field] ?? null;
      if (value !== null && value.length > MAX_TEXT_LENGTH) {
        throw new AppError('VALIDATION_FAILED', `Field \`${field}\` must be at most ${MAX_TEXT_LENGTH} characters.`, { field });
      }
      // A blank text is no text: the app gets "" either way.
      texts[field] = value === null || value.trim() === '' ? null : value;
    }
    const now = this.deps.clock.now();
    const row = await repo.upsertCategory(this.db, { shop_id: shopId, code, name, ...texts, created_at: now, updated_at: now });
    await this.deps.db.durable();
    return toCategory(row);
  }

  async listCategories(shopId: string): Promise<NpsCategory[]> {
    await this.deps.shops.requireShop(shopId);
    return (await repo.listCategories(this.db, shopId)).map(toCategory);
  }

  async deleteCategory(shopId: string, code: string): Promise<void> {
    await this.deps.shops.requireShop(shopId);
    if (!(await repo.deleteCategory(this.db, shopId, code))) throw new AppError('NOT_FOUND', `NPS category \`${code}\` does not exist.`);
    await this.deps.db.durable();
  }

  /** Both known, or a 422 naming the first unknown one (POST /nps/create). */
  async requireKnown(shopId: string, channel: string, category: string): Promise<void> {
    if (!(await repo.findChannel(this.db, shopId, channel))) {
      throw new AppError('VALIDATION_FAILED', `Unknown NPS channel \`${channel}\`.`, { field: 'channel' });
    }
    if (!(await repo.findCategory(this.db, shopId, category))) {
      throw new AppError('VALIDATION_FAILED', `Unknown NPS category \`${category}\`.`, { field: 'category' });
    }
  }
}

function checkCode(code: string): void {
  if (!isValidNpsCode(code)) {
    throw new AppError('VALIDATION_FAILED', 'Field `code` must be 1 to 64 of A-Z, a-z, 0-9, `_`, `.` and `-`.', { field: 'code' });
  }
}

function checkName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed.length > MAX_NAME_LENGTH) {
    throw new AppError('VALIDATION_FAILED', `Field \`name\` must be 1 to ${MAX_NAME_LENGTH} characters, not only spaces.`, {
      field: 'name',
    });
  }
  return trimmed;
}

function toChannel(row: repo.ChannelRow): NpsChannel {
  return { code: row.code, name: row.name, createdAt: Number(row.created_at), updatedAt: Number(row.updated_at) };
}

function toCategory(row: repo.CategoryRow): NpsCategory {
  return {
    code: row.code,
    name: row.name,
    detractor_question: row.detractor_question,
    passive_question: row.passive_question,
    promoter_question: row.promoter_question,
    detractor_success: row.detractor_success,
    passive_success: row.passive_success,
    promoter_success: row.promoter_success,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}
