import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { AppError } from '../../errors.js';
import type { ShopsService } from '../shops/index.js';
import * as repo from './blocks.repo.js';
import * as figuresRepo from './figures.repo.js';
import { checkBlockFields, DEFAULT_BLOCK_LIMIT, isValidBlockCode } from './domain/block.js';
import { checkRules, type Rule, type RuleProblem } from './domain/rules.js';

export interface BlocksDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly shops: ShopsService;
}

export interface BlockInput {
  readonly name?: string | null;
  readonly title: string;
  readonly limit?: number;
  /** As the request holds it: checked whole by domain/rules.ts. */
  readonly rules: unknown;
}

export interface Block {
  readonly id: number;
  readonly code: string;
  readonly name: string | null;
  readonly title: string;
  readonly limit: number;
  readonly rules: readonly Rule[];
  readonly createdAt: number;
  readonly updatedAt: number;
}

/**
 * Recommendation blocks (admin-api.md "Recommendation blocks"): each an ordered list of
 * rules naming recommenders, by the code GET /recommend/{code} asks for.
 */
export class BlocksService {
  constructor(private readonly deps: BlocksDeps) {}

  private get db() {
    return this.deps.db.db;
  }

  /** Creates the block or replaces it whole (PUT); its id stays the one it was given first. */
  async putBlock(shopId: string, code: string, input: BlockInput): Promise<Block> {
    await this.deps.shops.requireShop(shopId);
    if (!isValidBlockCode(code)) {
      throw new AppError('VALIDATION_FAILED', 'Field `code` must be 1 to 64 of a-z, 0-9, `_` and `-`.', { field: 'code' });
    }
    const fields = checkBlockFields(input);
    if (!fields.ok) throw new AppError('VALIDATION_FAILED', `Field \`${fields.field}\` ${fields.requirement}.`, { field: fields.field });
    const rules = checkRules(input.rules);
    if (!rules.ok) throw rulesRefused(rules.problems);
    const now = this.deps.clock.now();
    const values = {
      name: input.name ?? null,
      title: input.title,
      limit: input.limit ?? DEFAULT_BLOCK_LIMIT,
      rules: JSON.stringify(rules.rules),
      updated_at: now,
    };
    const row = await this.db.transaction().execute(async (trx) => {
      const updated = await repo.updateBlock(trx, shopId, code, values);
      if (updated) return updated;
      const id = await repo.nextId(trx, shopId, 'blocks');
      await repo.insertBlock(trx, { shop_id: shopId, id, code, created_at: now, ...values });
      // Inserted, or made by a concurrent PUT meanwhile: this one replaces its fields.
      return repo.updateBlock(trx, shopId, code, values);
    });
    if (!row) throw new Error('A recommendation block vanished while it was written');
    await this.deps.db.durable();
    return toBlock(row);
  }

  async getBlock(shopId: string, code: string): Promise<Block> {
    await this.deps.shops.requireShop(shopId);
    const row = isValidBlockCode(code) ? await repo.findBlock(this.db, shopId, code) : undefined;
    if (!row) throw notFound(code);
    return toBlock(row);
  }

  /** The block GET /recommend serves (read on every request, so an edit shows at once on every node); undefined when there is none. */
  async findBlock(shopId: string, code: string): Promise<Block | undefined> {
    const row = await repo.findBlock(this.db, shopId, code);
    return row ? toBlock(row) : undefined;
  }

  async listBlocks(shopId: string): Promise<Block[]> {
    await this.deps.shops.requireShop(shopId);
    return (await repo.listBlocks(this.db, shopId)).map(toBlock);
  }

  async deleteBlock(shopId: string, code: string): Promise<void> {
    await this.deps.shops.requireShop(shopId);
    if (!isValidBlockCode(code)) throw notFound(code);
    // Its figures go with it, so that a new block of the same code starts at zero.
    const deleted = await this.db.transaction().execute(async (trx) => {
      if (!(await repo.deleteBlock(trx, shopId, code))) return false;
      await figuresRepo.deleteFigures(trx, shopId, code);
      return true;
    });
    if (!deleted) throw notFound(code);
    await this.deps.db.durable();
  }
}

function toBlock(row: repo.BlockRow): Block {
  return {
    id: Number(row.id),
    code: row.code,
    name: row.name,
    title: row.title,
    limit: row.limit,
    rules: JSON.parse(row.rules) as Rule[],
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** The first problem names the field; every problem is listed (rules.ts bounds how many). */
function rulesRefused(problems: readonly RuleProblem[]): AppError {
  const [first] = problems;
  const sentence = (p: RuleProblem) =>
    /^[a-z]/.test(p.message)
      ? `Field \`${p.path}\` ${p.message}`
      : `Field \`${p.path}\`: ${p.message.charAt(0).toLowerCase()}${p.message.slice(1)}`;
  const message =
    problems.length === 1 && first ? sentence(first) : `The rules have ${problems.length} problems: ${problems.map(sentence).join(' ')}`;
  return new AppError('VALIDATION_FAILED', message, { field: first?.path ?? 'rules' });
}

function notFound(code: string): AppError {
  // A code that cannot exist is not echoed: it may be anything a caller typed.
  return new AppError(
    'NOT_FOUND',
    isValidBlockCode(code) ? `Recommendation block \`${code}\` does not exist.` : 'Recommendation block does not exist.',
  );
}
