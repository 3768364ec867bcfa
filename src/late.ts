/**
 * A dependency bound once, after the service that reads it was built: the one way the
 * composition root (src/services.ts) hands a module what modules built after it provide.
 * Identity is built before every module that moves rows in a merge, tracking before its
 * subscribers, the messaging engine before the chains and bulk mailings whose templates it
 * renders: each such service takes a Late and reads it when it runs, never while it is
 * built. Reading before the root bound it, or binding twice, is a wiring fault and throws.
 */
export class Late<T> {
  private bound = false;
  private value: T | undefined;

  /** `what` names the dependency in the faults. */
  constructor(private readonly what: string) {}

  /** A Late bound at once: a test's stand-in for what the root would bind. */
  static of<T>(value: T, what = 'a late dependency'): Late<T> {
    const late = new Late<T>(what);
    late.bind(value);
    return late;
  }

  /**
   * A Late list of named participants (merge participants, tracking subscribers, catalog
   * listeners): binding a list that names one twice throws, saying which.
   */
  static namedList<E extends { readonly name: string }>(what: string): Late<readonly E[]> {
    return new LateNamedList<E>(what);
  }

  bind(value: T): void {
    if (this.bound) throw new Error(`${this.what}: bound twice`);
    this.value = value;
    this.bound = true;
  }

  get(): T {
    if (!this.bound) throw new Error(`${this.what}: read before the composition root bound it`);
    return this.value as T;
  }
}

class LateNamedList<E extends { readonly name: string }> extends Late<readonly E[]> {
  constructor(private readonly kind: string) {
    super(`the ${kind}s`);
  }

  override bind(list: readonly E[]): void {
    const seen = new Set<string>();
    for (const { name } of list) {
      if (seen.has(name)) throw new Error(`A ${this.kind} named "${name}" is already registered`);
      seen.add(name);
    }
    super.bind(list);
  }
}
