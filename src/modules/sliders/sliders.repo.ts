import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, SlidersTable } from '../../db/types.js';
import type { Slide, Slider } from './domain/slider.js';

/** Kysely only: rows in, rows out. Every statement is scoped by shop_id. */
export type Executor = Kysely<Database> | Transaction<Database>;
type SliderRow = Selectable<SlidersTable>;

/** A slide as stored in the `slides` JSON column: the admin API's names. */
interface StoredSlide {
  image_url: string;
  url: string;
  deeplink_ios: string | null;
  deeplink_android: string | null;
  content_type: string | null;
  content: string | null;
  tags: string[];
}

export interface SliderWrite {
  readonly shopId: string;
  readonly code: string;
  readonly width: number;
  readonly height: number;
  readonly slides: readonly Slide[];
  readonly now: number;
}

/**
 * Creates the slider or replaces it whole, in one statement (so a reader never sees half
 * of a replace); a replaced slider keeps its created_at.
 */
export async function upsertSlider(db: Executor, write: SliderWrite): Promise<Slider> {
  const row: SliderRow = {
    shop_id: write.shopId,
    code: write.code,
    width: write.width,
    height: write.height,
    slides: JSON.stringify(write.slides.map(toStoredSlide)),
    created_at: write.now,
    updated_at: write.now,
  };
  const stored = await db
    .insertInto('sliders')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['shop_id', 'code']).doUpdateSet((eb) => ({
        width: eb.ref('excluded.width'),
        height: eb.ref('excluded.height'),
        slides: eb.ref('excluded.slides'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
  return toSlider(stored);
}

export async function findSlider(db: Executor, shopId: string, code: string): Promise<Slider | undefined> {
  const row = await db.selectFrom('sliders').selectAll().where('shop_id', '=', shopId).where('code', '=', code).executeTakeFirst();
  return row ? toSlider(row) : undefined;
}

export async function listSliders(db: Executor, shopId: string): Promise<Slider[]> {
  const rows = await db.selectFrom('sliders').selectAll().where('shop_id', '=', shopId).orderBy('code').execute();
  return rows.map(toSlider);
}

export async function deleteSlider(db: Executor, shopId: string, code: string): Promise<boolean> {
  const result = await db.deleteFrom('sliders').where('shop_id', '=', shopId).where('code', '=', code).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

function toStoredSlide(slide: Slide): StoredSlide {
  return {
    image_url: slide.imageUrl,
    url: slide.url,
    deeplink_ios: slide.deeplinkIos,
    deeplink_android: slide.deeplinkAndroid,
    content_type: slide.contentType,
    content: slide.content,
    tags: [...slide.tags],
  };
}

function toSlider(row: SliderRow): Slider {
  const slides = JSON.parse(row.slides) as StoredSlide[];
  return {
    code: row.code,
    width: row.width,
    height: row.height,
    slides: slides.map((slide) => ({
      imageUrl: slide.image_url,
      url: slide.url,
      deeplinkIos: slide.deeplink_ios,
      deeplinkAndroid: slide.deeplink_android,
      contentType: slide.content_type,
      content: slide.content,
      tags: slide.tags,
    })),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
