import { describe, expect, it } from 'vitest';
import { BatchLoader } from '../../../src/modules/catalog/batch-loader.js';

/** A loader over a fixed table, recording every read it makes. */
function loader(options: { maxBatch?: number; fail?: (keys: readonly string[]) => boolean } = {}) {
  const table = new Map([
    ['a', 'A'],
    ['b', 'B'],
    ['c', 'C'],
    ['d', 'D'],
    ['e', 'E'],
  ]);
  const reads: { group: string; keys: string[] }[] = [];
  const l = new BatchLoader<string>({
    maxBatch: options.maxBatch ?? 10,
    read: (group, keys) => {
      reads.push({ group, keys: [...keys] });
      if (options.fail?.(keys)) return Promise.reject(new Error('db down'));
      return Promise.resolve(new Map(keys.filter((k) => table.has(k)).map((k) => [k, `${group}:${table.get(k)}`])));
    },
  });
  return { l, reads };
}

describe('BatchLoader', () => {
  it('reads the keys asked in one turn of the event loop together, once per group', async () => {
    const { l, reads } = loader();
    const answers = await Promise.all([l.load('s1', 'a'), l.load('s2', 'a'), l.load('s1', 'b'), l.load('s1', 'zz')]);
    expect(answers).toEqual(['s1:A', 's2:A', 's1:B', undefined]);
    expect(reads).toEqual([
      { group: 's1', keys: ['a', 'b', 'zz'] },
      { group: 's2', keys: ['a'] },
    ]);
  });

  it('reads a key asked twice in a turn once, and answers both', async () => {
    const { l, reads } = loader();
    expect(await Promise.all([l.load('s', 'a'), l.load('s', 'a')])).toEqual(['s:A', 's:A']);
    expect(reads).toEqual([{ group: 's', keys: ['a'] }]);
  });

  it('splits a turn holding more than maxBatch keys of a group', async () => {
    const { l, reads } = loader({ maxBatch: 2 });
    const answers = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((k) => l.load('s', k)));
    expect(answers).toEqual(['s:A', 's:B', 's:C', 's:D', 's:E']);
    expect(reads.map((r) => r.keys)).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
  });

  it('reads again for keys asked in a later turn', async () => {
    const { l, reads } = loader();
    await l.load('s', 'a');
    await l.load('s', 'a');
    expect(reads).toHaveLength(2);
  });

  it('rejects the lookups of a failed read only', async () => {
    let failures = 1;
    const { l } = loader({ maxBatch: 1, fail: (keys) => keys.includes('b') && failures-- > 0 });
    const [a, b] = await Promise.allSettled([l.load('s', 'a'), l.load('s', 'b')]);
    expect(a).toEqual({ status: 'fulfilled', value: 's:A' });
    expect(b).toMatchObject({ status: 'rejected', reason: new Error('db down') });
    // A read after the failure goes to the database again.
    expect(await l.load('s', 'b')).toBe('s:B');
  });

  it('refuses a batch size that is not a positive integer', () => {
    expect(() => new BatchLoader({ maxBatch: 0, read: () => Promise.resolve(new Map()) })).toThrow(RangeError);
    expect(() => new BatchLoader({ maxBatch: 1.5, read: () => Promise.resolve(new Map()) })).toThrow(RangeError);
  });
});
