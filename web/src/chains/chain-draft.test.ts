import { describe, expect, it } from 'vitest';
import {
  chainBody,
  draftOf,
  durationSeconds,
  emptyStep,
  fieldOfChainError,
  moveStep,
  newDraft,
  removeStep,
  toDuration,
  validateDraft,
  withinStep,
  type ChainDraft,
  type StepDraft,
} from './chain-draft';
import type { ChainBody } from './chains.queries';

const saved: ChainBody = {
  id: 7,
  code: 'welcome',
  name: 'Welcome',
  status: 'active',
  trigger: { event: 'signed_up' },
  reentry: 'once_per_period',
  reentry_period_seconds: 7 * 86_400,
  version: 3,
  steps: [
    { wait: { seconds: 3600 } },
    { if: { variable: 'plan', equals: 'gold' }, else: 'exit' },
    { send: { email: { subject: 'Hi {{ name }}', html: '<p>Hi</p>' } } },
    { wait: { until: '09:30' } },
    { if: { purchased: false }, else: 'exit' },
    { if: { segment: 4 }, else: 'exit' },
    { exit: {} },
  ],
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-02T00:00:00.000Z',
};

function draftWith(steps: StepDraft[], patch: Partial<ChainDraft> = {}): ChainDraft {
  return { ...newDraft(), code: 'c', trigger: { ...newDraft().trigger, event: 'signed_up' }, steps, ...patch };
}

const fields = (draft: ChainDraft, isNew = false) => validateDraft(draft, isNew).map((p) => p.field);

describe('a saved chain round-trips through the draft', () => {
  it('gives back the same trigger, re-entry and steps it was read from', () => {
    const body = chainBody(draftOf(saved));
    expect(body).toEqual({
      name: 'Welcome',
      status: 'active',
      trigger: { event: 'signed_up' },
      reentry: 'once_per_period',
      reentry_period_seconds: 7 * 86_400,
      steps: saved.steps,
    });
  });

  it('remembers each step’s index in the saved version, so its counts follow it when moved', () => {
    const draft = draftOf(saved);
    const moved = moveStep(draft.steps, 0, 2);
    expect(moved.map((s) => s.savedIndex)).toEqual([1, 2, 0, 3, 4, 5, 6]);
    expect(emptyStep('exit').savedIndex).toBeNull();
  });

  it('reads the other triggers', () => {
    const cart = draftOf({ ...saved, trigger: { abandoned_cart: { after_seconds: 7200 } } });
    expect(cart.trigger).toMatchObject({ kind: 'abandoned_cart', after: { amount: '2', unit: 'hours' } });
    expect(chainBody(cart).trigger).toEqual({ abandoned_cart: { after_seconds: 7200 } });
    const segment = draftOf({ ...saved, trigger: { segment_entry: { segment_id: 12 } } });
    expect(chainBody(segment).trigger).toEqual({ segment_entry: { segment_id: 12 } });
    expect(chainBody(draftOf({ ...saved, trigger: { price_drop: {} } })).trigger).toEqual({ price_drop: {} });
  });

  it('leaves out the period unless the re-entry is once per period, and an empty name is null', () => {
    const body = chainBody({ ...draftOf(saved), reentry: 'once', name: '  ' });
    expect(body.reentry_period_seconds).toBeUndefined();
    expect(body.name).toBeNull();
  });
});

describe('durations', () => {
  it('shows seconds in the largest whole unit', () => {
    expect(toDuration(86_400 * 3)).toEqual({ amount: '3', unit: 'days' });
    expect(toDuration(5400)).toEqual({ amount: '90', unit: 'minutes' });
    expect(toDuration(61)).toEqual({ amount: '61', unit: 'seconds' });
    expect(toDuration(0)).toEqual({ amount: '0', unit: 'seconds' });
  });

  it('counts a whole amount in seconds and refuses anything else', () => {
    expect(durationSeconds({ amount: ' 2 ', unit: 'hours' })).toBe(7200);
    expect(durationSeconds({ amount: '1.5', unit: 'hours' })).toBeNull();
    expect(durationSeconds({ amount: '-1', unit: 'days' })).toBeNull();
    expect(durationSeconds({ amount: '', unit: 'days' })).toBeNull();
  });
});

describe('validateDraft mirrors the server’s checks at the server’s paths', () => {
  it('accepts the draft of a valid chain', () => {
    expect(validateDraft(draftOf(saved), false)).toEqual([]);
  });

  it('refuses a wait of 10 years at steps[i].wait.seconds, and one of exactly 366 days passes', () => {
    const wait = (amount: string): StepDraft => ({
      ...(emptyStep('wait') as StepDraft & { kind: 'wait' }),
      duration: { amount, unit: 'days' },
    });
    expect(fields(draftWith([emptyStep('exit'), wait('3650')]))).toEqual(['steps[1].wait.seconds']);
    expect(fields(draftWith([wait('366')]))).toEqual([]);
    expect(fields(draftWith([wait('367')]))).toEqual(['steps[0].wait.seconds']);
    expect(fields(draftWith([wait('two')]))).toEqual(['steps[0].wait.seconds']);
  });

  it('refuses a time of day that is not HH:MM', () => {
    const until = (time: string): StepDraft => ({ ...(emptyStep('wait') as StepDraft & { kind: 'wait' }), mode: 'until', until: time });
    expect(fields(draftWith([until('24:00')]))).toEqual(['steps[0].wait.until']);
    expect(fields(draftWith([until('9:30')]))).toEqual(['steps[0].wait.until']);
    expect(fields(draftWith([until('23:59')]))).toEqual([]);
  });

  it('refuses a condition without its name, level or segment', () => {
    const cond = (patch: Partial<StepDraft & { kind: 'if' }>): StepDraft => ({
      ...(emptyStep('if') as StepDraft & { kind: 'if' }),
      ...patch,
    });
    expect(fields(draftWith([cond({ condition: 'variable', name: '' })]))).toEqual(['steps[0].if.variable']);
    expect(fields(draftWith([cond({ condition: 'property', name: 'has space' })]))).toEqual(['steps[0].if.property']);
    expect(fields(draftWith([cond({ condition: 'variable', name: 'plan', equals: 'x'.repeat(1001) })]))).toEqual(['steps[0].if.equals']);
    expect(fields(draftWith([cond({ condition: 'level', name: '' })]))).toEqual(['steps[0].if.level']);
    expect(fields(draftWith([cond({ condition: 'segment', segmentId: '' })]))).toEqual(['steps[0].if.segment']);
    expect(fields(draftWith([cond({ condition: 'opened', flag: true })]))).toEqual([]);
  });

  it('refuses a send without a template for any channel', () => {
    const send = (templates: object): StepDraft => ({ ...(emptyStep('send') as StepDraft & { kind: 'send' }), templates });
    expect(fields(draftWith([send({})]))).toEqual(['steps[0].send']);
    expect(fields(draftWith([send({ locales: { de: {} } })]))).toEqual(['steps[0].send']);
    expect(fields(draftWith([send({ sms: { body: 'Hi' } })]))).toEqual([]);
    expect(fields(draftWith([send({ locales: { de: { sms: { body: 'Hallo' } } } })]))).toEqual([]);
  });

  it('refuses no steps and more than 50', () => {
    expect(fields(draftWith([]))).toEqual(['steps']);
    expect(fields(draftWith(Array.from({ length: 51 }, () => emptyStep('exit'))))).toEqual(['steps']);
    expect(fields(draftWith(Array.from({ length: 50 }, () => emptyStep('exit'))))).toEqual([]);
  });

  it('refuses a trigger the server would refuse', () => {
    const trigger = newDraft().trigger;
    expect(fields(draftWith([emptyStep('exit')], { trigger: { ...trigger, event: 'Signed Up' } }))).toEqual(['trigger']);
    expect(fields(draftWith([emptyStep('exit')], { trigger: { ...trigger, kind: 'segment_entry', segmentId: '0' } }))).toEqual(['trigger']);
    expect(
      fields(draftWith([emptyStep('exit')], { trigger: { ...trigger, kind: 'abandoned_cart', after: { amount: '400', unit: 'days' } } })),
    ).toEqual(['trigger']);
    expect(fields(draftWith([emptyStep('exit')], { trigger: { ...trigger, kind: 'back_in_stock' } }))).toEqual([]);
  });

  it('refuses a period under an hour or over 366 days, and a new chain without a code', () => {
    const steps = [emptyStep('exit')];
    expect(fields(draftWith(steps, { reentry: 'once_per_period', period: { amount: '59', unit: 'minutes' } }))).toEqual([
      'reentry_period_seconds',
    ]);
    expect(fields(draftWith(steps, { reentry: 'once_per_period', period: { amount: '1', unit: 'hours' } }))).toEqual([]);
    expect(fields(draftWith(steps, { code: ' ' }), true)).toEqual(['code']);
    expect(fields(draftWith(steps, { code: ' ' }), false)).toEqual([]);
  });
});

describe('the server’s refusals are read back to their field', () => {
  it('names the step path of a step refusal and of a template that does not parse', () => {
    expect(fieldOfChainError('Step 3: `steps[3].wait.seconds` is at most 31622400 seconds (366 days): a wait is at most 366 days.')).toBe(
      'steps[3].wait.seconds',
    );
    expect(fieldOfChainError('Template steps[2].send.email.html does not parse: line 1: unclosed tag')).toBe('steps[2].send.email.html');
    expect(fieldOfChainError('Trigger event: is not valid: expected string.')).toBe('trigger');
    expect(fieldOfChainError('Segment 9 does not exist.')).toBe('trigger');
    expect(fieldOfChainError('A chain has at most 50 steps; this one has 51.')).toBe('steps');
    expect(fieldOfChainError('once_per_period needs `reentry_period_seconds` from 3600 to 31622400.')).toBe('reentry_period_seconds');
    expect(fieldOfChainError('Field `reentry` must be one of always, once, once_per_period.')).toBe('reentry');
    expect(fieldOfChainError('Something else.')).toBeUndefined();
  });

  it('splits a field into its step and the path below it', () => {
    expect(withinStep('steps[3].wait.seconds', 3)).toBe('.wait.seconds');
    expect(withinStep('steps[3]', 3)).toBe('');
    expect(withinStep('steps[31].wait', 3)).toBeUndefined();
    expect(withinStep('trigger', 0)).toBeUndefined();
  });
});

describe('moving and removing steps', () => {
  const steps = [emptyStep('wait'), emptyStep('if'), emptyStep('send')];
  it('moves a step up and down, and not past either end', () => {
    expect(moveStep(steps, 2, 1).map((s) => s.kind)).toEqual(['wait', 'send', 'if']);
    expect(moveStep(steps, 0, 1).map((s) => s.kind)).toEqual(['if', 'wait', 'send']);
    expect(moveStep(steps, 0, -1).map((s) => s.kind)).toEqual(['wait', 'if', 'send']);
    expect(moveStep(steps, 2, 3).map((s) => s.kind)).toEqual(['wait', 'if', 'send']);
  });
  it('removes the step at its index', () => {
    expect(removeStep(steps, 1).map((s) => s.kind)).toEqual(['wait', 'send']);
  });
});
