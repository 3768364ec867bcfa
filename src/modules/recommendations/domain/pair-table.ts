/**
 * Co-occurrence's pair counts: an open-addressing hash table of (item, item) → count over
 * three typed arrays, linear probing, at most half full. A `Map` keyed by one number per
 * pair would do the same, but its keys pass 2^31 and become heap numbers, and counting
 * pairs was over a third of a large rebuild (docs/performance.md "Recommendations"); here a
 * pair costs 12 bytes and no allocation. Pure.
 */

const INITIAL_CAPACITY = 1024;
/** An empty slot's count: a stored pair has been counted at least once. */
const EMPTY = 0;

export class PairTable {
  private low: Int32Array;
  private high: Int32Array;
  private counts: Int32Array;
  private mask: number;
  private stored = 0;

  constructor(capacity = INITIAL_CAPACITY) {
    const size = 2 ** Math.ceil(Math.log2(Math.max(INITIAL_CAPACITY, capacity)));
    this.low = new Int32Array(size);
    this.high = new Int32Array(size);
    this.counts = new Int32Array(size);
    this.mask = size - 1;
  }

  get size(): number {
    return this.stored;
  }

  /** Adds one to the pair's count; `a` and `b` are item numbers below 2^31, in any order, not equal. */
  increment(a: number, b: number): void {
    const x = a < b ? a : b;
    const y = a < b ? b : a;
    let slot = hash(x, y) & this.mask;
    for (;;) {
      const count = this.counts[slot]!;
      if (count === EMPTY) {
        this.low[slot] = x;
        this.high[slot] = y;
        this.counts[slot] = 1;
        this.stored++;
        if (this.stored * 2 > this.counts.length) this.resize(this.counts.length * 2);
        return;
      }
      if (this.low[slot] === x && this.high[slot] === y) {
        this.counts[slot] = count + 1;
        return;
      }
      slot = (slot + 1) & this.mask;
    }
  }

  /** The pair's count; 0 when it was never counted (or was dropped). */
  get(a: number, b: number): number {
    const x = a < b ? a : b;
    const y = a < b ? b : a;
    let slot = hash(x, y) & this.mask;
    for (;;) {
      const count = this.counts[slot]!;
      if (count === EMPTY) return 0;
      if (this.low[slot] === x && this.high[slot] === y) return count;
      slot = (slot + 1) & this.mask;
    }
  }

  /** Every stored pair, the smaller item number first. */
  forEach(visit: (low: number, high: number, count: number) => void): void {
    const { low, high, counts } = this;
    for (let slot = 0; slot < counts.length; slot++) {
      const count = counts[slot]!;
      if (count !== EMPTY) visit(low[slot]!, high[slot]!, count);
    }
  }

  /** Each stored count's histogram up to `cap` (counts above it fall in the last bucket). */
  histogram(cap: number): number[] {
    const buckets = new Array<number>(cap + 1).fill(0);
    for (const count of this.counts) if (count !== EMPTY) buckets[Math.min(count, cap)]!++;
    return buckets;
  }

  /** Keeps only the pairs counted more than `threshold` times; returns how many went. */
  dropAtMost(threshold: number): number {
    const before = this.stored;
    const { low, high, counts } = this;
    this.allocate(this.counts.length);
    for (let slot = 0; slot < counts.length; slot++) {
      const count = counts[slot]!;
      if (count > threshold) this.place(low[slot]!, high[slot]!, count);
    }
    return before - this.stored;
  }

  private resize(capacity: number): void {
    const { low, high, counts } = this;
    this.allocate(capacity);
    for (let slot = 0; slot < counts.length; slot++) {
      const count = counts[slot]!;
      if (count !== EMPTY) this.place(low[slot]!, high[slot]!, count);
    }
  }

  private allocate(capacity: number): void {
    this.low = new Int32Array(capacity);
    this.high = new Int32Array(capacity);
    this.counts = new Int32Array(capacity);
    this.mask = capacity - 1;
    this.stored = 0;
  }

  /** Stores a pair known to be absent. */
  private place(x: number, y: number, count: number): void {
    let slot = hash(x, y) & this.mask;
    while (this.counts[slot] !== EMPTY) slot = (slot + 1) & this.mask;
    this.low[slot] = x;
    this.high[slot] = y;
    this.counts[slot] = count;
    this.stored++;
  }
}

/** A 32-bit mix of the two numbers (multiplicative hashing, then a final xor-shift). */
function hash(x: number, y: number): number {
  let h = Math.imul(x, 0x9e3779b1) ^ Math.imul(y + 0x7f4a7c15, 0x85ebca77);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  return h >>> 0;
}
