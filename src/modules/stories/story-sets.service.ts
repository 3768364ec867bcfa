import type { Insertable } from 'kysely';
import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import type { StoriesTable, StorySlidesTable } from '../../db/types.js';
import { AppError } from '../../errors.js';
import type { ShopsService } from '../shops/index.js';
import type { StoredElement } from './domain/elements.js';
import type { StoredSet, StoredSlide, StoredStory } from './domain/answer.js';
import { keptIds } from './domain/ids.js';
import type { StorySettings } from './domain/settings.js';
import { checkStorySet, isValidSetCode, type SlideType } from './domain/story-set.js';
import * as repo from './stories.repo.js';

export interface StorySetsDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly shops: Pick<ShopsService, 'requireShop'>;
}

export interface StorySet extends StoredSet {
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface StorySetSummary {
  readonly id: number;
  readonly code: string;
  readonly name: string | null;
  readonly stories: number;
  readonly updatedAt: number;
}

export interface Figures {
  readonly views: number;
  readonly clicks: number;
}

export interface StorySetFigures {
  readonly stories: readonly (Figures & { readonly id: number; readonly slides: readonly (Figures & { readonly id: number })[] })[];
}

/**
 * Story sets of the admin API (admin-api.md "Stories"; docs/stories.md): each a list of
 * stories of slides of elements, by the code GET /stories/{code} asks for.
 */
export class StorySetsService {
  constructor(private readonly deps: StorySetsDeps) {}

  private get db() {
    return this.deps.db.db;
  }

  /** Creates the set or replaces it whole (PUT); ids are kept as domain/ids.ts says, so views survive an edit. */
  async putSet(shopId: string, code: string, input: unknown): Promise<StorySet> {
    await this.deps.shops.requireShop(shopId);
    if (!isValidSetCode(code)) {
      throw new AppError('VALIDATION_FAILED', 'Field `code` must be 1 to 64 of a-z, 0-9, `_` and `-`.', { field: 'code' });
    }
    const checked = checkStorySet(input);
    if (!checked.ok)
      throw new AppError('VALIDATION_FAILED', `Field \`${checked.field}\` ${checked.requirement}.`, { field: checked.field });
    const draft = checked.set;
    const now = this.deps.clock.now();
    const values = { name: draft.name, settings: JSON.stringify(draft.settings), updated_at: now };
    await this.db.transaction().execute(async (trx) => {
      let set = await repo.updateSet(trx, shopId, code, values);
      if (!set) {
        const [id] = await repo.takeIds(trx, shopId, 'sets', 1);
        await repo.insertSet(trx, { shop_id: shopId, id: id as number, code, created_at: now, ...values });
        set = await repo.updateSet(trx, shopId, code, values);
      }
      if (!set) throw new Error('A story set vanished while it was written');
      const setId = Number(set.id);
      const [oldStories, oldSlides] = await Promise.all([repo.findStories(trx, shopId, setId), repo.findSlides(trx, shopId, setId)]);
      const storyIds = await fill(
        keptIds(
          oldStories.map((s) => Number(s.id)),
          draft.stories.map((s) => s.id),
        ),
        (n) => repo.takeIds(trx, shopId, 'stories', n),
      );
      const oldSlidesOf = (storyId: number | undefined) =>
        oldSlides.filter((slide) => Number(slide.story_id) === storyId).map((slide) => Number(slide.id));
      // A slide passing its id keeps it wherever it now stands (a slide moved from another
      // story too); one that does not keeps the id at its place in the story that kept its id.
      const oldSlideIds = new Set(oldSlides.map((slide) => Number(slide.id)));
      const claimed = new Set<number>();
      const passed = draft.stories.map((story) =>
        story.slides.map((slide) => {
          if (slide.id === undefined || !oldSlideIds.has(slide.id) || claimed.has(slide.id)) return undefined;
          claimed.add(slide.id);
          return slide.id;
        }),
      );
      const slideKept = passed.map((ids, i) => {
        const atPlace = oldSlidesOf(storyIds[i]);
        return ids.map((id, j) => {
          if (id !== undefined) return id;
          const candidate = atPlace[j];
          if (candidate === undefined || claimed.has(candidate)) return undefined;
          claimed.add(candidate);
          return candidate;
        });
      });
      const fresh = await repo.takeIds(trx, shopId, 'slides', slideKept.flat().filter((id) => id === undefined).length);
      const slideIds = slideKept.map((ids) => ids.map((id) => id ?? (fresh.shift() as number)));
      const storyRows: Insertable<StoriesTable>[] = draft.stories.map((story, i) => ({
        shop_id: shopId,
        id: storyIds[i] as number,
        set_id: setId,
        position: i,
        name: story.name,
        avatar: story.avatar,
        pinned: story.pinned ? 1 : 0,
      }));
      const slideRows: Insertable<StorySlidesTable>[] = draft.stories.flatMap((story, i) =>
        story.slides.map((slide, j) => ({
          shop_id: shopId,
          id: (slideIds[i] as number[])[j] as number,
          story_id: storyIds[i] as number,
          set_id: setId,
          position: j,
          type: slide.type,
          background: slide.background,
          background_color: slide.backgroundColor,
          preview: slide.preview,
          duration: slide.duration,
          elements: JSON.stringify(slide.elements),
        })),
      );
      const storyOfOldSlide = new Map(oldSlides.map((slide) => [Number(slide.id), Number(slide.story_id)]));
      const moved = slideRows
        .filter((row) => storyOfOldSlide.has(row.id) && storyOfOldSlide.get(row.id) !== row.story_id)
        .map((row) => ({ slideId: row.id, storyId: row.story_id }));
      await repo.replaceContent(trx, shopId, setId, storyRows, slideRows, moved);
    });
    await this.deps.db.durable();
    return this.getSet(shopId, code);
  }

  async getSet(shopId: string, code: string): Promise<StorySet> {
    await this.deps.shops.requireShop(shopId);
    const found = isValidSetCode(code) ? await this.findSet(shopId, code) : undefined;
    if (!found) throw notFound(code);
    return found;
  }

  /** The set as stored, read whole (GET /stories reads it on every request, so an edit shows at once on every node). */
  async findSet(shopId: string, code: string): Promise<StorySet | undefined> {
    const set = await repo.findSet(this.db, shopId, code);
    if (!set) return undefined;
    const setId = Number(set.id);
    const [stories, slides] = await Promise.all([repo.findStories(this.db, shopId, setId), repo.findSlides(this.db, shopId, setId)]);
    const slidesOf = new Map<number, StoredSlide[]>();
    for (const row of slides) {
      const list = slidesOf.get(Number(row.story_id)) ?? [];
      list.push({
        id: Number(row.id),
        type: row.type as SlideType,
        background: row.background,
        backgroundColor: row.background_color,
        preview: row.preview,
        duration: row.duration,
        elements: JSON.parse(row.elements) as StoredElement[],
      });
      slidesOf.set(Number(row.story_id), list);
    }
    const storyList: StoredStory[] = stories.map((row) => ({
      id: Number(row.id),
      name: row.name,
      avatar: row.avatar,
      pinned: row.pinned === 1,
      slides: slidesOf.get(Number(row.id)) ?? [],
    }));
    return {
      id: setId,
      code: set.code,
      name: set.name,
      settings: JSON.parse(set.settings) as Partial<StorySettings>,
      stories: storyList,
      createdAt: Number(set.created_at),
      updatedAt: Number(set.updated_at),
    };
  }

  async listSets(shopId: string): Promise<StorySetSummary[]> {
    await this.deps.shops.requireShop(shopId);
    return (await repo.listSets(this.db, shopId)).map((row) => ({
      id: Number(row.id),
      code: row.code,
      name: row.name,
      stories: row.stories,
      updatedAt: Number(row.updated_at),
    }));
  }

  /** The set goes with its views and clicks, so that a new set of the same code starts at zero. */
  async deleteSet(shopId: string, code: string): Promise<void> {
    await this.deps.shops.requireShop(shopId);
    const set = isValidSetCode(code) ? await repo.findSet(this.db, shopId, code) : undefined;
    if (!set) throw notFound(code);
    await this.db.transaction().execute((trx) => repo.deleteSet(trx, shopId, Number(set.id)));
    await this.deps.db.durable();
  }

  /** Views and clicks: per slide the devices that viewed (clicked) it, per story the devices that viewed (clicked) any of its slides. */
  async figures(shopId: string, code: string): Promise<StorySetFigures> {
    const set = await this.getSet(shopId, code);
    const [perSlide, perStory] = await Promise.all([
      repo.slideFigures(this.db, shopId, set.id),
      repo.storyFigures(this.db, shopId, set.id),
    ]);
    const count = (rows: readonly { table: string; n: number }[], table: string) => rows.find((r) => r.table === table)?.n ?? 0;
    return {
      stories: set.stories.map((story) => {
        const mine = perStory.filter((row) => row.storyId === story.id);
        return {
          id: story.id,
          views: count(mine, 'story_views'),
          clicks: count(mine, 'story_clicks'),
          slides: story.slides.map((slide) => {
            const its = perSlide.filter((row) => row.slideId === slide.id);
            return { id: slide.id, views: count(its, 'story_views'), clicks: count(its, 'story_clicks') };
          }),
        };
      }),
    };
  }
}

/** The kept ids with fresh ones in the gaps, in order. */
async function fill(kept: readonly (number | undefined)[], take: (n: number) => Promise<number[]>): Promise<number[]> {
  const fresh = await take(kept.filter((id) => id === undefined).length);
  return kept.map((id) => id ?? (fresh.shift() as number));
}

export function notFound(code: string): AppError {
  // A code that cannot exist is not echoed: it may be anything a caller typed.
  return new AppError('NOT_FOUND', isValidSetCode(code) ? `Story set \`${code}\` does not exist.` : 'Story set does not exist.');
}
