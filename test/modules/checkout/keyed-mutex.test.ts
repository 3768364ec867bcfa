import { describe, expect, it } from 'vitest';
import { KeyedMutex } from '../../../src/modules/checkout/keyed-mutex.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('KeyedMutex', () => {
  it('runs the tasks of one key one at a time, in arrival order, even after a failure', async () => {
    const mutex = new KeyedMutex();
    const log: string[] = [];
    const task =
      (name: string, fail = false) =>
      async () => {
        log.push(`${name} start`);
        await tick();
        log.push(`${name} end`);
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([mutex.run('k', task('a')), mutex.run('k', task('b', true)), mutex.run('k', task('c'))]);
    expect(log).toEqual(['a start', 'a end', 'b start', 'b end', 'c start', 'c end']);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });

  it('runs the tasks of different keys side by side', async () => {
    const mutex = new KeyedMutex();
    const log: string[] = [];
    const task = (name: string) => async () => {
      log.push(`${name} start`);
      await tick();
      log.push(`${name} end`);
    };
    await Promise.all([mutex.run('x', task('x')), mutex.run('y', task('y'))]);
    expect(log.slice(0, 2)).toEqual(['x start', 'y start']);
  });
});
