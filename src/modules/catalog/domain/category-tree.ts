/**
 * The category tree of GET /products/categories (interface.md endpoint 9, "Category tree
 * node"), with its filters. Pure. Decisions (docs/catalog-read.md):
 * - depth d keeps the nodes at most d levels below a root (0 = roots only);
 * - exclude names feed (external) category ids and removes each one with its subtree;
 * - only_discount and locations test a category's whole subtree (a category qualifies
 *   when it or any descendant holds a matching product, even below the depth cut or
 *   inside an excluded subtree), so an ancestor of a matching category always stays;
 * - a category whose parent the feed does not list is a root;
 * - only_discount with locations asks for one product that meets both: discounted and
 *   sold in one of the locations (a category whose discounted products are all sold
 *   elsewhere does not qualify).
 */

export interface TreeCategoryRecord {
  /** The platform's stable integer id. */
  readonly id: number;
  readonly externalId: string;
  readonly parentExternalId: string | null;
  readonly name: string;
  readonly url: string | null;
  /** Products of this very category (not its subtree) whose oldprice > price. */
  readonly discountProductCount: number;
  /**
   * Locations where products of this very category are sold. The import puts every
   * location of the feed here for a product sold everywhere (one that names none).
   */
  readonly locationIds: readonly string[];
  /** Locations where discounted products of this very category are sold (the import puts every location for one sold everywhere). */
  readonly discountLocationIds: readonly string[];
}

export interface CategoryTreeQuery {
  /** Levels below the roots; 0 = roots only. */
  readonly depth: number;
  /** External ids whose subtrees are left out. */
  readonly exclude: ReadonlySet<string>;
  readonly onlyDiscount: boolean;
  /** Only categories with products sold in one of these locations; null = no filter. */
  readonly locations: ReadonlySet<string> | null;
}

export interface CategoryTreeNode {
  readonly id: number;
  readonly external_id: string;
  readonly name: string;
  readonly url: string | null;
  readonly parent_id: number | null;
  readonly parent_external_id: string | null;
  readonly children: CategoryTreeNode[];
}

interface Vertex {
  readonly record: TreeCategoryRecord;
  readonly children: Vertex[];
  /** Whether the subtree passes the filters (only_discount, locations). */
  matches: boolean;
}

export function buildCategoryTree(records: readonly TreeCategoryRecord[], query: CategoryTreeQuery): CategoryTreeNode[] {
  const roots = linkVertices(records);
  for (const root of roots) markMatches(root, query);
  const out: CategoryTreeNode[] = [];
  for (const root of roots) {
    const node = toNode(root, null, 0, query);
    if (node) out.push(node);
  }
  return out;
}

/**
 * Parent links into trees. Feed order is kept among siblings. A vertex that sits on a
 * loop is reachable from no root, so it is left out (the import already breaks loops;
 * this only keeps a bad row from hanging the walk).
 */
function linkVertices(records: readonly TreeCategoryRecord[]): Vertex[] {
  const byId = new Map<string, Vertex>();
  for (const record of records) {
    if (!byId.has(record.externalId)) byId.set(record.externalId, { record, children: [], matches: false });
  }
  const roots: Vertex[] = [];
  for (const vertex of byId.values()) {
    const parentId = vertex.record.parentExternalId;
    const parent = parentId === null || parentId === vertex.record.externalId ? undefined : byId.get(parentId);
    if (parent) parent.children.push(vertex);
    else roots.push(vertex);
  }
  return roots;
}

/** Post-order without recursion, so that a deep feed cannot exhaust the stack. */
function markMatches(root: Vertex, query: CategoryTreeQuery): void {
  const order: Vertex[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const vertex = stack.pop()!;
    order.push(vertex);
    stack.push(...vertex.children);
  }
  for (let i = order.length - 1; i >= 0; i -= 1) {
    const vertex = order[i]!;
    vertex.matches = ownMatch(vertex.record, query) || vertex.children.some((child) => child.matches);
  }
}

function ownMatch(record: TreeCategoryRecord, query: CategoryTreeQuery): boolean {
  if (query.onlyDiscount && record.discountProductCount === 0) return false;
  if (query.locations !== null) {
    const wanted = query.locations;
    const sold = query.onlyDiscount ? record.discountLocationIds : record.locationIds;
    return sold.some((id) => wanted.has(id));
  }
  // Without a location filter, only_discount alone decides; with no filter at all, every category matches.
  return true;
}

function toNode(vertex: Vertex, parent: TreeCategoryRecord | null, level: number, query: CategoryTreeQuery): CategoryTreeNode | undefined {
  const { record } = vertex;
  if (query.exclude.has(record.externalId) || !vertex.matches) return undefined;
  const children: CategoryTreeNode[] = [];
  if (level < query.depth) {
    for (const child of vertex.children) {
      const node = toNode(child, record, level + 1, query);
      if (node) children.push(node);
    }
  }
  return {
    id: record.id,
    external_id: record.externalId,
    name: record.name,
    url: record.url,
    parent_id: parent?.id ?? null,
    parent_external_id: parent?.externalId ?? null,
    children,
  };
}

/** How many nodes a tree holds, children included (the weight of a cached tree). */
export function countNodes(nodes: readonly CategoryTreeNode[]): number {
  let count = 0;
  const stack = [...nodes];
  while (stack.length > 0) {
    const node = stack.pop()!;
    count += 1;
    stack.push(...node.children);
  }
  return count;
}

/**
 * The categories and every ancestor of each, each once, walking up `parentOf`; the set of
 * those seen also stops a loop of parents in a feed.
 */
export function withAncestors(categoryIds: readonly string[], parentOf: (id: string) => string | null): string[] {
  const seen = new Set<string>();
  for (const id of categoryIds) {
    for (let at: string | null = id; at !== null && !seen.has(at); at = parentOf(at)) seen.add(at);
  }
  return [...seen];
}
