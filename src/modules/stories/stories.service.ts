import type { Transaction } from 'kysely';
import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import type { Product, ShopCurrency } from '../catalog/index.js';
import type { ViewAttribution } from '../tracking/index.js';
import { storiesAnswer, type StoriesAnswer } from './domain/answer.js';
import { itemIdsOf } from './domain/elements.js';
import { isValidSetCode } from './domain/story-set.js';
import * as repo from './stories.repo.js';
import { notFound, type StorySetsService } from './story-sets.service.js';

export interface StoriesDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly storySets: Pick<StorySetsService, 'findSet'>;
  readonly products: { viewServedItems(shop: ShopCurrency, itemIds: readonly string[]): Promise<ReadonlyMap<string, Product>> };
}

export type StoryEventName = 'view' | 'click';

export interface StoryEvent {
  readonly event: StoryEventName;
  readonly code: string;
  readonly storyId: number;
  readonly slideId: number;
  readonly did: string;
}

/** How long a story click waits for the device's next product view (as long as the SDKs keep a `source`). */
export const CLICK_ATTRIBUTION_MS = 48 * 3600_000;

/**
 * What the apps call (contract-notes "Beyond interface.md"; docs/stories.md): a set's
 * stories for a device, and the device's views and clicks of slides.
 */
export class StoriesService {
  constructor(private readonly deps: StoriesDeps) {}

  private get db() {
    return this.deps.db.db;
  }

  /** GET /stories/{code}: products read from the served catalog now; an unavailable one is left out. */
  async storiesFor(shop: ShopCurrency, code: string, did: string | undefined): Promise<StoriesAnswer> {
    const set = isValidSetCode(code) ? await this.deps.storySets.findSet(shop.shopId, code) : undefined;
    if (!set) throw notFound(code);
    const itemIds = [...new Set(set.stories.flatMap((story) => story.slides.flatMap((slide) => slide.elements.flatMap(itemIdsOf))))];
    const [viewed, products] = await Promise.all([
      did === undefined ? [] : repo.viewedSlides(this.db, shop.shopId, did, set.id),
      this.deps.products.viewServedItems(shop, itemIds),
    ]);
    return storiesAnswer(set, new Set(viewed), products);
  }

  /**
   * POST /track/stories. A view marks the slide viewed for the device; a click is counted
   * and remembered for the device's next product view. A device's repeat of either is
   * stored once (the primary key), so nothing counts twice. A slide that is not of that
   * story of that set is refused: the app holds ids of an older answer, or a wrong one.
   */
  async track(shopId: string, input: StoryEvent): Promise<void> {
    const setId = await repo.findSlideInSet(this.db, shopId, input.code, input.storyId, input.slideId);
    if (setId === undefined) {
      throw new AppError('VALIDATION_FAILED', 'No slide `slide_id` of story `story_id` is in the story set `code`.', { field: 'slide_id' });
    }
    const now = this.deps.clock.now();
    const row = { shop_id: shopId, slide_id: input.slideId, did: input.did, story_id: input.storyId, set_id: setId, created_at: now };
    if (input.event === 'view') {
      await repo.insertTouch(this.db, 'story_views', row);
    } else {
      await this.db.transaction().execute(async (trx) => {
        await repo.insertTouch(trx, 'story_clicks', row);
        await repo.rememberClick(trx, shopId, input.did, input.code, now);
      });
    }
    await this.deps.db.durable();
  }

  /**
   * Tracking asks this in each batch's transaction for the devices of its product views:
   * the set code of each device's last story click made within CLICK_ATTRIBUTION_MS,
   * given up once (the click's row is deleted as it is read).
   */
  async takeClickAttributions(
    trx: Transaction<Database>,
    shopId: string,
    dids: readonly string[],
    now: number,
  ): Promise<Map<string, ViewAttribution>> {
    const codes = await repo.takeClicks(trx, shopId, dids, now - CLICK_ATTRIBUTION_MS);
    return new Map([...codes].map(([did, code]) => [did, { recommendedBy: 'stories', recommendedCode: code }]));
  }
}
