import { describe, expect, it } from 'vitest';
import {
  aggregateCounterHits,
  bucketStart,
  DAILY_WINDOW,
  NOW_WINDOW,
  sumCounterWindows,
  windowRange,
} from '../../../src/modules/tracking/domain/counters.js';
import { draftCustomEvent, draftPushEvent } from '../../../src/modules/tracking/domain/event-draft.js';
import type { TrackedItem } from '../../../src/modules/tracking/domain/items.js';
import { applyListOperation, applyListOperations, MAX_LIST_ITEMS, mergeLists } from '../../../src/modules/tracking/domain/lists.js';
import { orderTotals, toMinorUnits } from '../../../src/modules/tracking/domain/money.js';
import { isSessionLive, SESSION_IDLE_MS } from '../../../src/modules/tracking/domain/session.js';
import type { PushEventInput } from '../../../src/modules/tracking/tracking.types.js';

const item = (id: string, amount = 1, extra: Partial<TrackedItem> = {}): TrackedItem => ({ id, amount, ...extra });

describe('cart and wish list operations', () => {
  it('adds new items at the end', () => {
    expect(applyListOperation([item('a')], { kind: 'add', items: [item('b'), item('c')] })).toEqual([item('a'), item('b'), item('c')]);
  });

  it('replaces the entry of an item already in the list where it stands, not summing the amounts', () => {
    const list = [item('a', 2), item('b', 1)];
    expect(applyListOperation(list, { kind: 'add', items: [item('a', 5, { price: 10 })] })).toEqual([
      item('a', 5, { price: 10 }),
      item('b', 1),
    ]);
  });

  it('keeps the last entry of an id repeated within one event', () => {
    expect(applyListOperation([], { kind: 'add', items: [item('a', 1), item('b'), item('a', 3)] })).toEqual([item('a', 3), item('b')]);
  });

  it('replaces the whole list, an empty replacement emptying it', () => {
    expect(applyListOperation([item('a'), item('b')], { kind: 'replace', items: [item('c', 2)] })).toEqual([item('c', 2)]);
    expect(applyListOperation([item('a')], { kind: 'replace', items: [] })).toEqual([]);
  });

  it('removes the given ids and ignores ids that are not in the list', () => {
    expect(applyListOperation([item('a'), item('b'), item('c')], { kind: 'remove', ids: ['a', 'c', 'x'] })).toEqual([item('b')]);
  });

  it('applies operations in order', () => {
    const list = applyListOperations(
      [],
      [
        { kind: 'add', items: [item('a'), item('b')] },
        { kind: 'remove', ids: ['a'] },
        { kind: 'add', items: [item('a', 4)] },
      ],
    );
    expect(list).toEqual([item('b'), item('a', 4)]);
  });

  it(`keeps the newest ${MAX_LIST_ITEMS} entries`, () => {
    const many = Array.from({ length: MAX_LIST_ITEMS + 5 }, (_, i) => item(`i${i}`));
    const list = applyListOperation([], { kind: 'add', items: many });
    expect(list).toHaveLength(MAX_LIST_ITEMS);
    expect(list[0]).toEqual(item('i5'));
  });

  it('merges two lists as the union by id, the survivor entries winning', () => {
    const survivor = [item('a', 1), item('b', 2)];
    const merged = [item('b', 9), item('c', 3)];
    expect(mergeLists(survivor, merged)).toEqual([item('c', 3), item('a', 1), item('b', 2)]);
  });
});

describe('money in minor units', () => {
  it.each([
    [0, 0],
    [19.99, 1999],
    [1.005, 101],
    [0.285, 29],
    [0.1 + 0.2, 30],
    [100, 10000],
    [0.004, 0],
    [0.005, 1],
    [1e-7, 0],
    [123456789.12, 12345678912],
  ])('rounds %d to %d kopecks from its decimal spelling', (value, expected) => {
    expect(toMinorUnits(value)).toBe(expected);
  });

  it('refuses amounts that cannot be counted exactly', () => {
    expect(toMinorUnits(1e21)).toBeUndefined();
    expect(toMinorUnits(-1)).toBeUndefined();
    expect(toMinorUnits(Number.NaN)).toBeUndefined();
  });

  it('sums price × amount exactly, items without a price counting nothing', () => {
    const totals = orderTotals([item('a', 3, { price: 19.99 }), item('b', 1, { price: 1.005 }), item('c', 2)], 60.98);
    expect(totals).toEqual({ ok: true, itemsTotal: 5997 + 101, orderPrice: 6098 });
  });

  it('sums 0.1 a thousand times to exactly 100.00', () => {
    expect(orderTotals([item('a', 1000, { price: 0.1 })], undefined)).toEqual({ ok: true, itemsTotal: 10000, orderPrice: null });
  });

  it('names the field that is too large to count', () => {
    expect(orderTotals([item('a', 1000, { price: 1e13 })], undefined)).toEqual({ ok: false, field: 'price' });
    expect(orderTotals([item('a', 1, { price: 1 })], 1e20)).toEqual({ ok: false, field: 'order_price' });
  });
});

describe('product counter windows', () => {
  const MIN = 60_000;
  const noon = Date.UTC(2026, 0, 15, 12, 0, 0);

  it('aligns buckets to the epoch', () => {
    expect(bucketStart(noon + 4 * MIN + 59_999, 5)).toBe(noon);
    expect(bucketStart(noon + 5 * MIN, 5)).toBe(noon + 5 * MIN);
    expect(bucketStart(noon + 59 * MIN, 60)).toBe(noon);
  });

  it('counts the current bucket and the 5 (23) before it', () => {
    expect(windowRange(NOW_WINDOW, noon + 29 * MIN + 59_999)).toEqual({ from: noon, to: noon + 25 * MIN });
    expect(windowRange(NOW_WINDOW, noon + 30 * MIN)).toEqual({ from: noon + 5 * MIN, to: noon + 30 * MIN });
    expect(windowRange(DAILY_WINDOW, noon)).toEqual({ from: noon - 23 * 60 * MIN, to: noon });
  });

  it('aggregates hits per shop, item and bucket, an item repeated in one event counting once', () => {
    const rows = aggregateCounterHits([
      { shopId: 's', time: noon, kind: 'view', itemIds: ['a', 'a', 'b'] },
      { shopId: 's', time: noon + MIN, kind: 'cart', itemIds: ['a'] },
      { shopId: 's', time: noon + 6 * MIN, kind: 'purchase', itemIds: ['a'] },
    ]);
    const a = rows.filter((r) => r.itemId === 'a');
    expect(a).toEqual([
      { shopId: 's', itemId: 'a', granularity: 5, bucket: noon, views: 1, carts: 1, purchases: 0 },
      { shopId: 's', itemId: 'a', granularity: 60, bucket: noon, views: 1, carts: 1, purchases: 1 },
      { shopId: 's', itemId: 'a', granularity: 5, bucket: noon + 5 * MIN, views: 0, carts: 0, purchases: 1 },
    ]);
    expect(rows.filter((r) => r.itemId === 'b')).toHaveLength(2);
  });

  it('sums only the rows inside each window', () => {
    const rows = [
      { granularity: 5, bucket: noon, views: 2, carts: 1, purchases: 0 },
      { granularity: 5, bucket: noon - 5 * MIN, views: 100, carts: 100, purchases: 100 },
      { granularity: 60, bucket: noon, views: 3, carts: 1, purchases: 1 },
      { granularity: 60, bucket: noon - 24 * 60 * MIN, views: 100, carts: 100, purchases: 100 },
    ];
    expect(sumCounterWindows(rows, noon + 25 * MIN)).toEqual({
      now: { view: 2, cart: 1, purchase: 0 },
      daily: { view: 3, cart: 1, purchase: 1 },
    });
  });
});

describe('sessions', () => {
  it('ends a session at exactly 2 hours without activity', () => {
    expect(isSessionLive(0, SESSION_IDLE_MS - 1)).toBe(true);
    expect(isSessionLive(0, SESSION_IDLE_MS)).toBe(false);
  });
});

describe('event drafts', () => {
  const base: PushEventInput = { shopId: 's', did: 'abcdefghij', event: 'view', items: [item('a')], attribution: {} };

  it('leaves absent parameters out of params and keeps an ignored source as null', () => {
    const drafted = draftPushEvent({ ...base, attribution: { stream: 'web', recommendedBy: null, recommendedCode: null } }, 1);
    expect(drafted.ok && drafted.draft.params).toEqual({ stream: 'web', recommended_by: null, recommended_code: null });
  });

  it('stores the purchase parameters under their contract names and an empty order_id as absent', () => {
    const drafted = draftPushEvent(
      {
        ...base,
        event: 'purchase',
        items: [item('a', 2, { price: 10.5 })],
        purchase: { orderId: '', deliveryType: 'courier', paymentType: '', promocode: 'X1', orderPrice: 21 },
      },
      1,
    );
    if (!drafted.ok) throw new Error('expected a draft');
    expect(drafted.draft.params).toEqual({ delivery_type: 'courier', payment_type: '', promocode: 'X1', order_price: 21 });
    expect(drafted.draft.order).toEqual({
      orderId: null,
      deliveryType: 'courier',
      paymentType: '',
      promocode: 'X1',
      itemsTotal: 2100,
      orderPrice: 2100,
      parts: { order_cash: null, order_bonuses: null, order_delivery: null, order_discount: null },
      channel: null,
      taxFree: null,
      giftPackage: null,
      deliveryAddress: null,
      custom: null,
      stream: null,
    });
    expect(drafted.draft.listChanges).toEqual([{ list: 'cart', op: { kind: 'remove', ids: ['a'] } }]);
  });

  it('keeps the trackPurchase parts in minor units on the order and rounded to kopecks in params', () => {
    const drafted = draftPushEvent(
      {
        ...base,
        event: 'purchase',
        attribution: { stream: 'ios' },
        purchase: { orderCash: 10.005, orderBonuses: 0, orderDelivery: 1e-7, channel: 'app', taxFree: false, custom: { a: [1, 'b'] } },
      },
      1,
    );
    if (!drafted.ok) throw new Error('expected a draft');
    expect(drafted.draft.order).toMatchObject({
      parts: { order_cash: 1001, order_bonuses: 0, order_delivery: 0, order_discount: null },
      channel: 'app',
      taxFree: false,
      custom: { a: [1, 'b'] },
      stream: 'ios',
    });
    expect(drafted.draft.params).toEqual({
      stream: 'ios',
      order_cash: 10.01,
      order_bonuses: 0,
      order_delivery: 0,
      channel: 'app',
      tax_free: false,
      custom: { a: [1, 'b'] },
    });
  });

  it('refuses a part of the order too large to count, naming it', () => {
    const drafted = draftPushEvent({ ...base, event: 'purchase', purchase: { orderBonuses: 2 ** 60 } }, 1);
    expect(drafted).toEqual({ ok: false, field: 'order_bonuses' });
  });

  it('maps each push event to its list change and counter', () => {
    const cases: [Partial<PushEventInput>, unknown, string | undefined][] = [
      [{ event: 'view' }, [], 'view'],
      [{ event: 'cart' }, [{ list: 'cart', op: { kind: 'add', items: [item('a')] } }], 'cart'],
      [{ event: 'cart', fullCart: true }, [{ list: 'cart', op: { kind: 'replace', items: [item('a')] } }], undefined],
      [{ event: 'remove_from_cart' }, [{ list: 'cart', op: { kind: 'remove', ids: ['a'] } }], undefined],
      [{ event: 'wish' }, [{ list: 'wish', op: { kind: 'add', items: [item('a')] } }], undefined],
      [{ event: 'wish', fullWish: true }, [{ list: 'wish', op: { kind: 'replace', items: [item('a')] } }], undefined],
      [{ event: 'remove_wish' }, [{ list: 'wish', op: { kind: 'remove', ids: ['a'] } }], undefined],
      [{ event: 'category', items: [], categoryId: '7' }, [], undefined],
    ];
    for (const [input, listChanges, counter] of cases) {
      const drafted = draftPushEvent({ ...base, ...input }, 1);
      expect(drafted.ok && { listChanges: drafted.draft.listChanges, counter: drafted.draft.counter }).toEqual({
        listChanges,
        counter,
      });
    }
  });

  it('puts a custom event’s variables, category, label, value and payload in params, at its own time', () => {
    const draft = draftCustomEvent(
      {
        shopId: 's',
        identifiers: { email: 'a@b.co' },
        code: 'signup',
        category: 'c',
        label: 'l',
        value: 5,
        time: 1000,
        variables: { plan: 'gold', seats: 3 },
        payload: { tags: ['x', 'y'] },
      },
      2000,
    );
    expect(draft).toMatchObject({
      did: null,
      event: 'signup',
      custom: true,
      time: 1000,
      receivedAt: 2000,
      items: [],
      identifiers: { email: 'a@b.co' },
      params: { plan: 'gold', seats: 3, category: 'c', label: 'l', value: 5, payload: { tags: ['x', 'y'] } },
    });
  });
});
