/**
 * Storefront-like popularity: index k of n (0-based) is drawn with weight 1 / (k + 1)^s,
 * so a few products take most of the views, as on a shop's product pages. Deterministic
 * (a seeded PRNG), so two runs send the same sequence.
 */
export function zipfSampler(n: number, s = 1, seed = 0x9e3779b9): () => number {
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let k = 0; k < n; k++) {
    total += 1 / (k + 1) ** s;
    cumulative[k] = total;
  }
  let state = seed >>> 0;
  // mulberry32: small, fast and good enough to pick products.
  const random = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => {
    const target = random() * total;
    let low = 0;
    let high = n - 1;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((cumulative[mid] as number) < target) low = mid + 1;
      else high = mid;
    }
    return low;
  };
}
