import type { Product, ShopCurrency } from '../catalog/index.js';
import type { ShopsService } from '../shops/index.js';
import type { Recommender } from './domain/rules.js';
import type { RecommendService } from './recommend.service.js';

/**
 * The admin UI's preview of a block (docs/recommendations.md "Preview"): what GET
 * /recommend/{code} would answer for a chosen product and customer, with the recommender
 * each product came from. The same code path as the public answer, so the preview cannot
 * drift from it.
 */

export interface PreviewInput {
  readonly item?: string;
  readonly profileId?: number;
  readonly limit?: number;
}

export interface PreviewItem {
  readonly id: string;
  /** `fallback`: every rule came back empty and popular stood in. */
  readonly recommender: Recommender | 'fallback';
  readonly product: Product | null;
}

export interface BlockPreview {
  readonly block: { readonly id: number; readonly code: string; readonly title: string };
  readonly items: readonly PreviewItem[];
}

export class BlockPreviewService {
  constructor(
    private readonly deps: {
      readonly shops: Pick<ShopsService, 'requireShop'>;
      readonly recommend: Pick<RecommendService, 'recommend'>;
      readonly products: { viewServedItems(shop: ShopCurrency, itemIds: readonly string[]): Promise<ReadonlyMap<string, Product>> };
    },
  ) {}

  async preview(shopId: string, code: string, input: PreviewInput): Promise<BlockPreview> {
    const shop = await this.deps.shops.requireShop(shopId);
    const found = await this.deps.recommend.recommend(shop, {
      code,
      page: 1,
      discount: false,
      ...(input.item !== undefined && { item: input.item }),
      ...(input.profileId !== undefined && { profileId: input.profileId }),
      ...(input.limit !== undefined && { limit: input.limit }),
    });
    const products = await this.deps.products.viewServedItems(shop, found.ids);
    return {
      block: found.block,
      items: found.ids.map((id) => ({ id, recommender: found.sources.get(id)!, product: products.get(id) ?? null })),
    };
  }
}
