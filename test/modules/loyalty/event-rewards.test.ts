import { describe, expect, it } from 'vitest';
import { isEventCode, rewardTerms } from '../../../src/modules/loyalty/domain/event-rewards.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const DAY = 86_400_000;

describe('event reward terms', () => {
  it('confirms at once without pending days, living the programme lifetime from now', () => {
    expect(rewardTerms({ rewardPendingDays: 0, bonusLifetimeDays: 30 }, NOW)).toEqual({
      status: 'confirmed',
      confirmsAt: null,
      expiresAt: NOW + 30 * DAY,
    });
    expect(rewardTerms({ rewardPendingDays: 0, bonusLifetimeDays: null }, NOW)).toEqual({
      status: 'confirmed',
      confirmsAt: null,
      expiresAt: null,
    });
  });

  it('is pending for the pending days, its lifetime counted from when it becomes spendable', () => {
    expect(rewardTerms({ rewardPendingDays: 14, bonusLifetimeDays: 30 }, NOW)).toEqual({
      status: 'pending',
      confirmsAt: NOW + 14 * DAY,
      expiresAt: NOW + 44 * DAY,
    });
    expect(rewardTerms({ rewardPendingDays: 1, bonusLifetimeDays: null }, NOW)).toEqual({
      status: 'pending',
      confirmsAt: NOW + DAY,
      expiresAt: null,
    });
  });
});

describe('event codes of rules', () => {
  it('are the codes custom events may have: a-z, 0-9 and _, 1 to 64 characters', () => {
    for (const code of ['signed_up', 'level_2', 'x', 'a'.repeat(64)]) expect(isEventCode(code), code).toBe(true);
    for (const code of ['', 'Signed', 'a-b', 'a b', 'é', 'a'.repeat(65)]) expect(isEventCode(code), code).toBe(false);
  });
});
