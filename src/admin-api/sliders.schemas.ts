import { Type, type Static } from '@sinclair/typebox';
import {
  MAX_CONTENT_LENGTH,
  MAX_CONTENT_TYPE_LENGTH,
  MAX_DIMENSION,
  MAX_LINK_LENGTH,
  MAX_SLIDES,
  MAX_TAG_LENGTH,
  MAX_TAGS_PER_SLIDE,
  MIN_DIMENSION,
  SLIDER_CODE_MAX_LENGTH,
  SLIDER_CODE_PATTERN,
} from '../modules/sliders/domain/slider.js';
import { ShopIdParam } from './common.schemas.js';

/**
 * admin-api.md, Sliders. The schemas bound every size; what a link or a tag may be
 * (http(s) only, no comma in a tag …) is the sliders domain's rule, checked by the
 * service with a sentence naming the field.
 */

const SliderCode = Type.String({
  minLength: 1,
  maxLength: SLIDER_CODE_MAX_LENGTH,
  pattern: SLIDER_CODE_PATTERN.source,
  description: `The slider code clients send as \`code\` to GET /slider: 1 to ${SLIDER_CODE_MAX_LENGTH} letters, digits, _ and -.`,
  examples: ['main_banner'],
});

export const SliderParamsSchema = Type.Object({ shop_id: ShopIdParam, code: SliderCode });
export type SliderParams = Static<typeof SliderParamsSchema>;

const Dimension = (description: string) =>
  Type.Integer({ minimum: MIN_DIMENSION, maximum: MAX_DIMENSION, description: `${description}, in pixels.` });

const HttpLink = (description: string) =>
  Type.String({
    minLength: 1,
    maxLength: MAX_LINK_LENGTH,
    description: `${description}: an absolute http or https URL (other schemes are refused: the link goes into \`html\`).`,
  });

const OptionalText = (maxLength: number, description: string) =>
  Type.Optional(
    Type.Union([Type.String({ maxLength }), Type.Null()], {
      description: `${description} Absent, null or empty means none.`,
    }),
  );

const Tags = Type.Array(Type.String({ minLength: 1, maxLength: MAX_TAG_LENGTH }), {
  maxItems: MAX_TAGS_PER_SLIDE,
  description:
    `Tags GET /slider filters by: at most ${MAX_TAGS_PER_SLIDE}, each 1 to ${MAX_TAG_LENGTH} characters without ` +
    'commas, control characters or surrounding spaces; matched exactly; a repeated tag is kept once.',
  examples: [['men', 'sale']],
});

const slideFields = {
  image_url: HttpLink('The banner picture'),
  url: HttpLink('Where the banner leads'),
  deeplink_ios: OptionalText(
    MAX_LINK_LENGTH,
    'App link for iOS, `scheme://…` (javascript:, vbscript:, data:, file:, blob: and about: are refused).',
  ),
  deeplink_android: OptionalText(MAX_LINK_LENGTH, 'App link for Android, with the same rule.'),
  content_type: OptionalText(MAX_CONTENT_TYPE_LENGTH, 'Service field, passed to clients as given.'),
  content: OptionalText(MAX_CONTENT_LENGTH, 'Service field, passed to clients as given; also the `alt` text of the picture.'),
};

export const SlideBodySchema = Type.Object(
  { ...slideFields, tags: Type.Optional(Tags) },
  { additionalProperties: false, description: 'A slide (banner).' },
);
export type SlideBody = Static<typeof SlideBodySchema>;

export const PutSliderBodySchema = Type.Object(
  {
    width: Dimension('Width of the banners'),
    height: Dimension('Height of the banners'),
    slides: Type.Array(SlideBodySchema, {
      maxItems: MAX_SLIDES,
      description: `The slides in display order, at most ${MAX_SLIDES}; they replace the slider's slides.`,
    }),
  },
  { additionalProperties: false },
);
export type PutSliderBody = Static<typeof PutSliderBodySchema>;

const Nullable = (description: string) => Type.Union([Type.String(), Type.Null()], { description });
const Timestamp = (description: string) => Type.String({ format: 'date-time', description });

export const SlideSchema = Type.Object(
  {
    image_url: Type.String(),
    url: Type.String(),
    deeplink_ios: Nullable('App link for iOS, or null.'),
    deeplink_android: Nullable('App link for Android, or null.'),
    content_type: Nullable('Service field, or null.'),
    content: Nullable('Service field, or null.'),
    tags: Type.Array(Type.String()),
    html: Type.String({
      description: 'Ready markup rendered by the server: `<a href="url"><img src="image_url" width height alt="content"></a>`.',
    }),
  },
  { description: 'A slide as stored, with its rendered markup.' },
);

export const SliderSchema = Type.Object(
  {
    code: Type.String(),
    width: Type.Integer(),
    height: Type.Integer(),
    slides: Type.Array(SlideSchema),
    created_at: Timestamp('When the slider was first created (ISO 8601, UTC).'),
    updated_at: Timestamp('When it was last replaced (ISO 8601, UTC).'),
  },
  { description: 'A slider with all its slides.' },
);
export type SliderBody = Static<typeof SliderSchema>;

export const SliderListSchema = Type.Object(
  {
    sliders: Type.Array(
      Type.Object({
        code: Type.String(),
        width: Type.Integer(),
        height: Type.Integer(),
        slide_count: Type.Integer({ description: 'How many slides it has; GET …/sliders/{code} gives them.' }),
        created_at: Timestamp('When the slider was first created.'),
        updated_at: Timestamp('When it was last replaced.'),
      }),
    ),
  },
  { description: 'The sliders of the shop, by code, without their slides.' },
);
export type SliderListBody = Static<typeof SliderListSchema>;
