import type { Benefit } from './domain/benefits.js';
import type * as repo from './subscriptions.repo.js';
import type { Plan, Subscription } from './subscriptions.types.js';

/**
 * Stored subscriptions and plans as the module's services answer them. Their own file, so
 * that the services reading plans (the admin's, the members', the checkout's usage) share
 * them without importing one another.
 */

export function toSubscription(row: repo.SubscriptionRow): Subscription {
  return { code: row.code, name: row.name, status: row.status, createdAt: Number(row.created_at), updatedAt: Number(row.updated_at) };
}

export function toPlan(row: repo.PlanRow): Plan {
  return {
    subscription: row.subscription,
    code: row.code,
    name: row.name,
    status: row.status,
    periodDays: Number(row.period_days),
    benefits: JSON.parse(row.benefits) as Benefit[],
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}
