import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { AppError } from '../../errors.js';
import type { ShopsService } from '../shops/index.js';
import { renderSlideHtml } from './domain/slide-html.js';
import { checkSlider, emptyAsNull, isValidSliderCode, selectSlides, uniqueTags, type Slide, type Slider } from './domain/slider.js';
import * as repo from './sliders.repo.js';

export interface SlidersDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly shops: ShopsService;
}

/** A slide as an admin form sends it: optional fields may be absent, null or empty. */
export interface SlideInput {
  readonly imageUrl: string;
  readonly url: string;
  readonly deeplinkIos?: string | null;
  readonly deeplinkAndroid?: string | null;
  readonly contentType?: string | null;
  readonly content?: string | null;
  readonly tags?: readonly string[];
}

export interface SliderInput {
  readonly width: number;
  readonly height: number;
  readonly slides: readonly SlideInput[];
}

export interface RenderedSlide extends Slide {
  /** The ready markup of the slide (domain/slide-html.ts). */
  readonly html: string;
}

export interface RenderedSlider extends Omit<Slider, 'slides'> {
  readonly slides: readonly RenderedSlide[];
}

/** An entry of the admin list: the slider without its slides. */
export interface SliderSummary {
  readonly code: string;
  readonly width: number;
  readonly height: number;
  readonly slideCount: number;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/**
 * Sliders of a shop: defined whole through the admin API, read by GET /slider
 * (interface.md endpoint 10). Each slide's `html` is rendered on every read from the
 * stored fields, so the markup and its escaping have one definition (domain/slide-html.ts).
 */
export class SlidersService {
  constructor(private readonly deps: SlidersDeps) {}

  private get db() {
    return this.deps.db.db;
  }

  /** Creates the slider or replaces it whole (PUT): its slides are exactly the given ones. */
  async putSlider(shopId: string, code: string, input: SliderInput): Promise<RenderedSlider> {
    await this.deps.shops.requireShop(shopId);
    const slides = input.slides.map(toSlide);
    const check = checkSlider(code, { width: input.width, height: input.height, slides });
    if (!check.ok) {
      throw new AppError('VALIDATION_FAILED', `Field \`${check.field}\` ${check.requirement}.`, { field: check.field });
    }
    const slider = await repo.upsertSlider(this.db, {
      shopId,
      code,
      width: input.width,
      height: input.height,
      slides,
      now: this.deps.clock.now(),
    });
    return render(slider, slider.slides);
  }

  async getSlider(shopId: string, code: string): Promise<RenderedSlider> {
    await this.deps.shops.requireShop(shopId);
    const slider = isValidSliderCode(code) ? await repo.findSlider(this.db, shopId, code) : undefined;
    if (!slider) throw notFound(code);
    return render(slider, slider.slides);
  }

  async listSliders(shopId: string): Promise<SliderSummary[]> {
    await this.deps.shops.requireShop(shopId);
    const sliders = await repo.listSliders(this.db, shopId);
    return sliders.map((slider) => ({
      code: slider.code,
      width: slider.width,
      height: slider.height,
      slideCount: slider.slides.length,
      createdAt: slider.createdAt,
      updatedAt: slider.updatedAt,
    }));
  }

  async deleteSlider(shopId: string, code: string): Promise<void> {
    await this.deps.shops.requireShop(shopId);
    if (!isValidSliderCode(code) || !(await repo.deleteSlider(this.db, shopId, code))) throw notFound(code);
  }

  /**
   * GET /slider: the slider with the slides for these tags (domain selectSlides), or
   * undefined when the shop has no slider of that code. The caller has authenticated the
   * shop. Nothing is recorded: showing banners is not an action of the visitor.
   */
  async findSliderForDisplay(shopId: string, code: string, tags: readonly string[] | undefined): Promise<RenderedSlider | undefined> {
    if (!isValidSliderCode(code)) return undefined;
    const slider = await repo.findSlider(this.db, shopId, code);
    return slider ? render(slider, selectSlides(slider.slides, tags)) : undefined;
  }
}

function toSlide(input: SlideInput): Slide {
  return {
    imageUrl: input.imageUrl,
    url: input.url,
    deeplinkIos: emptyAsNull(input.deeplinkIos),
    deeplinkAndroid: emptyAsNull(input.deeplinkAndroid),
    contentType: emptyAsNull(input.contentType),
    content: emptyAsNull(input.content),
    tags: uniqueTags(input.tags ?? []),
  };
}

function render(slider: Slider, slides: readonly Slide[]): RenderedSlider {
  return {
    ...slider,
    slides: slides.map((slide) => ({ ...slide, html: renderSlideHtml(slide, slider) })),
  };
}

function notFound(code: string): AppError {
  // A code that cannot exist is not echoed: it may be anything a caller typed.
  return new AppError('NOT_FOUND', isValidSliderCode(code) ? `Slider \`${code}\` does not exist.` : 'Slider does not exist.');
}
