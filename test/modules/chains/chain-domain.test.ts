import { describe, expect, it } from 'vitest';
import { checkDefinition, parseTrigger, triggerBody } from '../../../src/modules/chains/domain/definition.js';
import { evaluate, waitEnds } from '../../../src/modules/chains/domain/progress.js';

/** The pure rules of chains (docs/chains.md): waits, conditions, the checks of a saved chain. */

describe('waitEnds', () => {
  const at = Date.UTC(2026, 0, 15, 12, 0, 30); // 15:00:30 in Moscow (UTC+3)

  it('ends a wait of seconds that many seconds later', () => {
    expect(waitEnds({ wait: { seconds: 86_400 } }, at, 'Europe/Moscow')).toBe(at + 86_400_000);
  });

  it('ends a wait until a time of day at its next occurrence in the shop time zone', () => {
    expect(waitEnds({ wait: { until: '18:15' } }, at, 'Europe/Moscow')).toBe(Date.UTC(2026, 0, 15, 15, 15));
    expect(waitEnds({ wait: { until: '09:00' } }, at, 'Europe/Moscow')).toBe(Date.UTC(2026, 0, 16, 6, 0));
    // The current minute has begun: its time of day is tomorrow's.
    expect(waitEnds({ wait: { until: '15:00' } }, at, 'Europe/Moscow')).toBe(Date.UTC(2026, 0, 16, 12, 0));
  });

  it('lands on the wall-clock time across a change of offset', () => {
    // Berlin moves from UTC+1 to UTC+2 in the night of 29 March 2026.
    const saturday = Date.UTC(2026, 2, 28, 12, 0); // 13:00 in Berlin
    expect(waitEnds({ wait: { until: '09:00' } }, saturday, 'Europe/Berlin')).toBe(Date.UTC(2026, 2, 29, 7, 0));
  });
});

describe('evaluate', () => {
  it('compares variables as the query string carries them, and an absent one is false with a reason', () => {
    expect(evaluate({ variable: 'n', equals: 5 }, { variables: { n: '5' } })).toEqual({ pass: true });
    expect(evaluate({ variable: 'n', equals: 'x' }, { variables: {} })).toEqual({ pass: false, reason: 'variable `n` is absent' });
    expect(evaluate({ variable: 'n', equals: 'x' }, { variables: { n: { a: 1 } } })).toMatchObject({ pass: false });
  });

  it('reads purchases, properties, level, segments and outcomes from the facts', () => {
    expect(evaluate({ purchased: false }, { variables: {}, purchased: false })).toEqual({ pass: true });
    expect(evaluate({ purchased: false }, { variables: {}, purchased: true })).toEqual({
      pass: false,
      reason: 'purchased since the start',
    });
    expect(evaluate({ property: 'city', equals: 'Omsk' }, { variables: {}, properties: { city: 'Omsk' } })).toEqual({ pass: true });
    expect(evaluate({ level: 'gold' }, { variables: {}, level: null })).toEqual({ pass: false, reason: 'loyalty level is none, not gold' });
    expect(evaluate({ segment: 3 }, { variables: {}, segments: [1, 3] })).toEqual({ pass: true });
    expect(evaluate({ opened: false }, { variables: {}, opened: true })).toEqual({ pass: false, reason: 'a message was opened' });
    expect(evaluate({ clicked: true }, { variables: {}, clicked: true })).toEqual({ pass: true });
  });
});

describe('checkDefinition', () => {
  it('accepts the core shapes and spells the trigger back as the admin API does', () => {
    for (const trigger of [
      { event: 'a_1' },
      { abandoned_cart: { after_seconds: 60 } },
      { back_in_stock: {} },
      { segment_entry: { segment_id: 2 } },
    ]) {
      const parsed = parseTrigger(trigger);
      expect(typeof parsed).toBe('object');
      expect(triggerBody(parsed as Exclude<typeof parsed, string>)).toEqual(trigger);
    }
    const checked = checkDefinition({
      trigger: { event: 'a' },
      reentry: 'once_per_period',
      reentryPeriodSeconds: 3600,
      steps: [{ wait: { until: '10:00' } }, { exit: {} }],
    });
    expect(checked).toMatchObject({ ok: true, definition: { reentry: 'once_per_period', periodMs: 3_600_000 } });
  });

  it('refuses a wait one second over 366 days and a time of day that is not HH:MM', () => {
    const over = checkDefinition({ trigger: { event: 'a' }, reentry: 'always', steps: [{ wait: { seconds: 366 * 86_400 + 1 } }] });
    expect(over).toMatchObject({ ok: false, field: 'steps[0].wait.seconds' });
    const hour = checkDefinition({ trigger: { event: 'a' }, reentry: 'always', steps: [{ wait: { until: '24:00' } }] });
    expect(hour).toMatchObject({ ok: false, field: expect.stringMatching(/^steps\[0\]\.wait/) });
    expect(checkDefinition({ trigger: { event: 'a' }, reentry: 'always', steps: [{ wait: { seconds: 366 * 86_400 } }] }).ok).toBe(true);
  });
});
