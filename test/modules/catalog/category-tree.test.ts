import { describe, expect, it } from 'vitest';
import {
  buildCategoryTree,
  countNodes,
  withAncestors,
  type CategoryTreeNode,
  type CategoryTreeQuery,
  type TreeCategoryRecord,
} from '../../../src/modules/catalog/domain/category-tree.js';

/**
 * Clothes(1) ─ Shoes(2) ─ Sneakers(3) [discount in msk; a full-price product in spb]
 *            └ Hats(6) [spb]
 * Books(4) [everywhere: msk, spb]
 * Toys(5) ─ Cars(7) [discount, spb]
 */
function record(
  externalId: string,
  id: number,
  parent: string | null,
  name: string,
  extra: Partial<TreeCategoryRecord> = {},
): TreeCategoryRecord {
  return {
    externalId,
    id,
    parentExternalId: parent,
    name,
    url: null,
    discountProductCount: 0,
    locationIds: [],
    discountLocationIds: [],
    ...extra,
  };
}

const RECORDS: TreeCategoryRecord[] = [
  record('1', 11, null, 'Clothes', { url: 'https://shop.example/c/1' }),
  record('2', 12, '1', 'Shoes'),
  record('3', 13, '2', 'Sneakers', { discountProductCount: 1, locationIds: ['msk', 'spb'], discountLocationIds: ['msk'] }),
  record('4', 14, null, 'Books', { locationIds: ['msk', 'spb'] }),
  record('5', 15, null, 'Toys'),
  record('6', 16, '1', 'Hats', { locationIds: ['spb'] }),
  record('7', 17, '5', 'Cars', { discountProductCount: 2, locationIds: ['spb'], discountLocationIds: ['spb'] }),
];

const ALL: CategoryTreeQuery = { depth: 10, exclude: new Set(), onlyDiscount: false, locations: null };

/** The tree as nested external ids: `1(2(3),6)`. */
function shape(nodes: readonly CategoryTreeNode[]): string {
  return nodes.map((n) => (n.children.length > 0 ? `${n.external_id}(${shape(n.children)})` : n.external_id)).join(',');
}

describe('buildCategoryTree', () => {
  it('builds nodes with internal and external ids of the node and its parent', () => {
    const tree = buildCategoryTree(RECORDS, ALL);
    expect(shape(tree)).toBe('1(2(3),6),4,5(7)');
    expect(tree[0]).toMatchObject({
      id: 11,
      external_id: '1',
      name: 'Clothes',
      url: 'https://shop.example/c/1',
      parent_id: null,
      parent_external_id: null,
    });
    expect(tree[0]!.children[0]).toMatchObject({ id: 12, external_id: '2', parent_id: 11, parent_external_id: '1' });
    expect(tree[0]!.children[0]!.children[0]).toEqual({
      id: 13,
      external_id: '3',
      name: 'Sneakers',
      url: null,
      parent_id: 12,
      parent_external_id: '2',
      children: [],
    });
  });

  it.each([
    [0, '1,4,5'],
    [1, '1(2,6),4,5(7)'],
    [2, '1(2(3),6),4,5(7)'],
  ])('depth %i', (depth, expected) => {
    expect(shape(buildCategoryTree(RECORDS, { ...ALL, depth }))).toBe(expected);
  });

  it('removes each excluded category with its whole subtree', () => {
    expect(shape(buildCategoryTree(RECORDS, { ...ALL, exclude: new Set(['2', '5']) }))).toBe('1(6),4');
    expect(shape(buildCategoryTree(RECORDS, { ...ALL, exclude: new Set(['unknown']) }))).toBe('1(2(3),6),4,5(7)');
  });

  it('only_discount keeps categories whose subtree has a discounted product, with their ancestors', () => {
    expect(shape(buildCategoryTree(RECORDS, { ...ALL, onlyDiscount: true }))).toBe('1(2(3)),5(7)');
  });

  it('only_discount counts the subtree below the depth cut', () => {
    expect(shape(buildCategoryTree(RECORDS, { ...ALL, onlyDiscount: true, depth: 0 }))).toBe('1,5');
  });

  it('locations keeps categories whose subtree has products sold there', () => {
    expect(shape(buildCategoryTree(RECORDS, { ...ALL, locations: new Set(['msk']) }))).toBe('1(2(3)),4');
    expect(shape(buildCategoryTree(RECORDS, { ...ALL, locations: new Set(['spb']) }))).toBe('1(2(3),6),4,5(7)');
    expect(shape(buildCategoryTree(RECORDS, { ...ALL, locations: new Set(['msk', 'spb']) }))).toBe('1(2(3),6),4,5(7)');
    expect(buildCategoryTree(RECORDS, { ...ALL, locations: new Set(['nowhere']) })).toEqual([]);
  });

  it('only_discount and locations together need one product that is both discounted and sold there', () => {
    // Sneakers has a discounted product (msk) and a product in spb, but no discounted one in spb.
    expect(shape(buildCategoryTree(RECORDS, { ...ALL, onlyDiscount: true, locations: new Set(['spb']) }))).toBe('5(7)');
    expect(shape(buildCategoryTree(RECORDS, { ...ALL, onlyDiscount: true, locations: new Set(['msk']) }))).toBe('1(2(3))');
    expect(shape(buildCategoryTree(RECORDS, { ...ALL, onlyDiscount: true, locations: new Set(['msk', 'spb']) }))).toBe('1(2(3)),5(7)');
  });

  it('makes a category whose parent is unknown a root, and leaves out a loop no root reaches', () => {
    const records = [record('a', 1, 'missing', 'Orphan'), record('x', 2, 'y', 'X'), record('y', 3, 'x', 'Y'), record('s', 4, 's', 'Self')];
    const tree = buildCategoryTree(records, ALL);
    expect(shape(tree)).toBe('a,s');
    expect(tree[0]).toMatchObject({ parent_id: null, parent_external_id: null });
  });

  it('walks a chain deeper than the call stack allows when filtering', () => {
    const chain = Array.from({ length: 20_000 }, (_, i) =>
      record(`c${i}`, i + 1, i === 0 ? null : `c${i - 1}`, `C${i}`, i === 19_999 ? { discountProductCount: 1 } : {}),
    );
    const tree = buildCategoryTree(chain, { ...ALL, onlyDiscount: true, depth: 2 });
    expect(shape(tree)).toBe('c0(c1(c2))');
  });
});

describe('withAncestors and countNodes', () => {
  const parents: Record<string, string | null> = { sneakers: 'shoes', shoes: 'clothes', clothes: null, a: 'b', b: 'a' };
  const parentOf = (id: string) => parents[id] ?? null;

  it('lists each category and its ancestors once, and stops at a loop of parents', () => {
    expect(withAncestors(['sneakers', 'shoes'], parentOf)).toEqual(['sneakers', 'shoes', 'clothes']);
    expect(withAncestors(['a'], parentOf)).toEqual(['a', 'b']);
    expect(withAncestors(['unknown'], parentOf)).toEqual(['unknown']);
    expect(withAncestors([], parentOf)).toEqual([]);
  });

  it('counts every node of a tree, children included', () => {
    const leaf = (id: string): CategoryTreeNode => ({ id, name: id, url: null, alias: null, children: [] }) as unknown as CategoryTreeNode;
    expect(countNodes([{ ...leaf('1'), children: [leaf('2'), { ...leaf('3'), children: [leaf('4')] }] }, leaf('5')])).toBe(5);
    expect(countNodes([])).toBe(0);
  });
});
