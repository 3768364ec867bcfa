import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import type { SubscriptionStatus } from '../../db/types.js';
import { AppError } from '../../errors.js';
import type { PromotionsService } from '../promotions/index.js';
import type { ShopsService } from '../shops/index.js';
import type { SubscriptionUsageService } from './subscription-usage.service.js';
import { CODE_PATTERN, findBenefitsProblem, NAME_MAX_LENGTH, PERIOD_DAYS_MAX, type Benefit } from './domain/benefits.js';
import * as repo from './subscriptions.repo.js';
import { toPlan, toSubscription } from './subscriptions.rows.js';
import type { Plan, PlanInput, Subscription } from './subscriptions.types.js';

export interface SubscriptionsDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly shops: Pick<ShopsService, 'requireShop'>;
  readonly promotions: Pick<PromotionsService, 'getPromotion'>;
  /** Keeps the checkout's benefit-only promotions; told when a plan changes. */
  readonly usage?: Pick<SubscriptionUsageService, 'forgetPlans'>;
}

const ADMIN_SUBSCRIPTION_NOT_FOUND = 'Subscription not found.';
const PLAN_NOT_FOUND = 'Plan not found.';

/**
 * Paid subscriptions and their plans, as the admin defines them (admin-api.md, "Paid
 * subscriptions"; docs/subscriptions.md). Statuses: `active` serves, `inactive` keeps its
 * members but gives no benefits to the checkout, `archived` is inactive and final for
 * new members and plans.
 */
export class SubscriptionsService {
  constructor(private readonly deps: SubscriptionsDeps) {}

  private get db() {
    return this.deps.db.db;
  }

  async createSubscription(
    shopId: string,
    input: { code: string; name: string; status?: SubscriptionStatus | undefined },
  ): Promise<Subscription> {
    await this.deps.shops.requireShop(shopId);
    requireCode('code', input.code);
    requireName('name', input.name);
    const now = this.deps.clock.now();
    const row = { shop_id: shopId, code: input.code, name: input.name, status: input.status ?? 'active', created_at: now, updated_at: now };
    if (!(await repo.insertSubscription(this.db, row))) throw new AppError('CONFLICT', `Subscription \`${input.code}\` already exists.`);
    await this.deps.db.durable();
    return toSubscription(row);
  }

  async getSubscription(shopId: string, code: string): Promise<Subscription> {
    return toSubscription(await this.requireSubscription(shopId, code));
  }

  async listSubscriptions(shopId: string, status?: SubscriptionStatus): Promise<Subscription[]> {
    await this.deps.shops.requireShop(shopId);
    return (await repo.listSubscriptions(this.db, shopId, status)).map(toSubscription);
  }

  /** Renames or moves between statuses; an archived subscription stays archived. */
  async updateSubscription(
    shopId: string,
    code: string,
    change: { name?: string | undefined; status?: SubscriptionStatus | undefined },
  ): Promise<Subscription> {
    const current = await this.requireSubscription(shopId, code);
    if (change.name !== undefined) requireName('name', change.name);
    if (current.status === 'archived' && change.status !== undefined && change.status !== 'archived') {
      throw new AppError('CONFLICT', 'An archived subscription cannot be restored.');
    }
    const row = await repo.updateSubscription(this.db, shopId, code, {
      ...(change.name !== undefined && { name: change.name }),
      ...(change.status !== undefined && { status: change.status }),
      updated_at: this.deps.clock.now(),
    });
    if (!row) throw new AppError('NOT_FOUND', ADMIN_SUBSCRIPTION_NOT_FOUND);
    await this.deps.db.durable();
    return toSubscription(row);
  }

  async createPlan(shopId: string, subscription: string, input: PlanInput): Promise<Plan> {
    const owner = await this.requireSubscription(shopId, subscription);
    if (owner.status === 'archived') throw new AppError('CONFLICT', 'An archived subscription takes no new plans.');
    requireCode('code', input.code);
    requireName('name', input.name);
    requirePeriod(input.periodDays);
    await this.requireBenefits(shopId, input.benefits);
    const now = this.deps.clock.now();
    const row: repo.PlanRow = {
      shop_id: shopId,
      subscription,
      code: input.code,
      name: input.name,
      status: input.status ?? 'active',
      period_days: input.periodDays,
      benefits: JSON.stringify(input.benefits),
      created_at: now,
      updated_at: now,
    };
    if (!(await repo.insertPlan(this.db, row))) throw new AppError('CONFLICT', `Plan \`${input.code}\` already exists.`);
    this.deps.usage?.forgetPlans(shopId);
    await this.deps.db.durable();
    return toPlan(row);
  }

  async getPlan(shopId: string, subscription: string, code: string): Promise<Plan> {
    await this.requireSubscription(shopId, subscription);
    const row = await repo.findPlan(this.db, shopId, subscription, code);
    if (!row) throw new AppError('NOT_FOUND', PLAN_NOT_FOUND);
    return toPlan(row);
  }

  async listPlans(shopId: string, subscription: string): Promise<Plan[]> {
    await this.requireSubscription(shopId, subscription);
    return (await repo.listPlans(this.db, shopId, subscription)).map(toPlan);
  }

  /**
   * Changes a plan: name, status, period, benefits (replaced whole). Members keep their
   * period anchor; a new `period_days` moves the current period's boundaries from the
   * next read on (docs/subscriptions.md, "Periods").
   */
  async updatePlan(
    shopId: string,
    subscription: string,
    code: string,
    change: Partial<Pick<PlanInput, 'name' | 'periodDays' | 'status' | 'benefits'>>,
  ): Promise<Plan> {
    const current = await this.getPlan(shopId, subscription, code);
    if (change.name !== undefined) requireName('name', change.name);
    if (change.periodDays !== undefined) requirePeriod(change.periodDays);
    if (change.benefits !== undefined) await this.requireBenefits(shopId, change.benefits);
    if (current.status === 'archived' && change.status !== undefined && change.status !== 'archived') {
      throw new AppError('CONFLICT', 'An archived plan cannot be restored.');
    }
    const row = await repo.updatePlan(this.db, shopId, subscription, code, {
      ...(change.name !== undefined && { name: change.name }),
      ...(change.status !== undefined && { status: change.status }),
      ...(change.periodDays !== undefined && { period_days: change.periodDays }),
      ...(change.benefits !== undefined && { benefits: JSON.stringify(change.benefits) }),
      updated_at: this.deps.clock.now(),
    });
    if (!row) throw new AppError('NOT_FOUND', PLAN_NOT_FOUND);
    this.deps.usage?.forgetPlans(shopId);
    await this.deps.db.durable();
    return toPlan(row);
  }

  private async requireSubscription(shopId: string, code: string): Promise<repo.SubscriptionRow> {
    await this.deps.shops.requireShop(shopId);
    const row = await repo.findSubscription(this.db, shopId, code);
    if (!row) throw new AppError('NOT_FOUND', ADMIN_SUBSCRIPTION_NOT_FOUND);
    return row;
  }

  /** The benefits' own rules, then every promotion they name must be the shop's. */
  private async requireBenefits(shopId: string, benefits: readonly Benefit[]): Promise<void> {
    const problem = findBenefitsProblem(benefits);
    if (problem) throw new AppError('VALIDATION_FAILED', problem.message, { field: problem.field });
    for (const [i, b] of benefits.entries()) {
      if (b.dataType !== 'promos') continue;
      for (const id of b.promotionIds) {
        await this.deps.promotions.getPromotion(shopId, id).catch((error: unknown) => {
          if (error instanceof AppError && error.code === 'NOT_FOUND') {
            throw new AppError('VALIDATION_FAILED', `Field \`benefits[${i}].promotion_ids\` names promotion ${id}, which does not exist.`, {
              field: `benefits[${i}].promotion_ids`,
            });
          }
          throw error;
        });
      }
    }
  }
}

function requireCode(field: string, code: string): void {
  if (!CODE_PATTERN.test(code)) {
    throw new AppError('VALIDATION_FAILED', `Field \`${field}\` must be 1 to 64 letters, digits, \`-\` or \`_\`.`, { field });
  }
}

function requireName(field: string, name: string): void {
  if (name.length === 0 || name.length > NAME_MAX_LENGTH) {
    throw new AppError('VALIDATION_FAILED', `Field \`${field}\` must be 1 to ${NAME_MAX_LENGTH} characters.`, { field });
  }
}

function requirePeriod(days: number): void {
  if (!Number.isSafeInteger(days) || days < 1 || days > PERIOD_DAYS_MAX) {
    throw new AppError('VALIDATION_FAILED', `Field \`period_days\` must be an integer from 1 to ${PERIOD_DAYS_MAX}.`, {
      field: 'period_days',
    });
  }
}
