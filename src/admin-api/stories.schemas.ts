import { Type, type Static } from '@sinclair/typebox';
import { ELEMENT_TYPES, MAX_ELEMENTS_PER_SLIDE, MAX_PRODUCTS_PER_ELEMENT } from '../modules/stories/domain/elements.js';
import { MAX_URL_LENGTH } from '../modules/stories/domain/links.js';
import { MAX_NAME_LENGTH, MAX_SLIDES_PER_STORY, MAX_STORIES_PER_SET } from '../modules/stories/domain/story-set.js';
import { ShopIdParam } from './common.schemas.js';

/**
 * admin-api.md "Stories" (docs/stories.md). The schema gives the shapes and types; the
 * stories domain (story-set.ts, elements.ts) checks links, colours and bounds and names the
 * path of a problem (`stories[0].slides[1].elements[0].link`).
 */

const SetCode = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[a-z0-9_-]{1,64}$',
  description: 'The code apps send to GET /stories/{code}: 1 to 64 of a-z, 0-9, _ and -.',
  examples: ['home'],
});

export const StorySetParamsSchema = Type.Object({ shop_id: ShopIdParam, code: SetCode });

const Url = (description: string) => Type.String({ maxLength: MAX_URL_LENGTH, description });
const Link = (description: string) =>
  Url(`${description} http(s) or an app deep link (\`myapp://…\`); never \`javascript:\` or \`data:\`.`);
const Colour = (description: string) => Type.String({ maxLength: 9, description: `${description} \`#rgb\` or \`#rrggbb\`.` });

export const StoryElementSchema = Type.Object(
  {
    type: Type.Union(
      ELEMENT_TYPES.map((t) => Type.Literal(t)),
      { description: 'button, products (a carousel), product (one product with a promo code), text_block, header.' },
    ),
    title: Type.Optional(Type.String({ maxLength: 100, description: 'button, header (required), product.' })),
    subtitle: Type.Optional(Type.String({ maxLength: 200, description: 'header.' })),
    icon: Type.Optional(Url('header: an http(s) picture.')),
    link: Type.Optional(Link('button, header.')),
    link_ios: Type.Optional(Link('button, header: for iOS.')),
    link_android: Type.Optional(Link('button, header: for Android.')),
    deeplink_ios: Type.Optional(Link('button.')),
    deeplink_android: Type.Optional(Link('button.')),
    background: Type.Optional(Colour('button.')),
    color: Type.Optional(Colour('button: its text.')),
    text_bold: Type.Optional(Type.Boolean({ description: 'button.' })),
    corner_radius: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, description: 'button.' })),
    item_ids: Type.Optional(
      Type.Array(Type.String({ maxLength: 255 }), { maxItems: MAX_PRODUCTS_PER_ELEMENT, description: 'products (required): offer ids.' }),
    ),
    show_carousel: Type.Optional(Type.String({ maxLength: 64, description: 'products: the label that opens the carousel.' })),
    hide_carousel: Type.Optional(Type.String({ maxLength: 64, description: 'products: the label that closes it.' })),
    item_id: Type.Optional(Type.String({ maxLength: 255, description: 'product (required): an offer id.' })),
    promocode: Type.Optional(Type.String({ maxLength: 64, description: 'product: the promo code shown with it.' })),
    promocode_discount_percent: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 99, description: 'product: the code’s discount, for the price shown with it.' }),
    ),
    text_input: Type.Optional(Type.String({ maxLength: 2000, description: 'text_block (required).' })),
    font_type: Type.Optional(Type.String({ description: 'text_block: monospaced, serif or sans-serif.' })),
    font_size: Type.Optional(Type.Number({ description: 'text_block: 6 to 96.' })),
    text_align: Type.Optional(Type.String({ description: 'text_block: left, right or center.' })),
    text_color: Type.Optional(Colour('text_block.')),
    text_background_color: Type.Optional(Colour('text_block.')),
    text_background_color_opacity: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, description: 'text_block: percent.' })),
    text_line_spacing: Type.Optional(Type.Number({ description: 'text_block: 0.5 to 5.' })),
    bold: Type.Optional(Type.Boolean({ description: 'text_block.' })),
    italic: Type.Optional(Type.Boolean({ description: 'text_block.' })),
    y_offset: Type.Optional(Type.Number({ description: 'Where it stands, in percent of the slide’s height from the top (0 to 100).' })),
  },
  { additionalProperties: false, description: 'An element of a slide: `type` says which fields it takes.' },
);
export type StoryElementBody = Static<typeof StoryElementSchema>;

const IdField = Type.Optional(
  Type.Integer({ minimum: 1, description: 'The id GET answered: passing it keeps the id (and its views) wherever it now stands.' }),
);

const SlideFields = {
  type: Type.Optional(Type.Union([Type.Literal('image'), Type.Literal('video')], { default: 'image' })),
  background: Url('The picture or video: http(s).'),
  background_color: Type.Optional(Type.Union([Colour('Shown while it loads.'), Type.Null()])),
  preview: Type.Optional(Type.Union([Url('A video’s preview picture: http(s).'), Type.Null()])),
  duration: Type.Optional(Type.Integer({ minimum: 1, maximum: 60, default: 10, description: 'Seconds.' })),
  elements: Type.Optional(Type.Array(StoryElementSchema, { maxItems: MAX_ELEMENTS_PER_SLIDE })),
};

const StoryFields = {
  name: Type.String({ maxLength: MAX_NAME_LENGTH }),
  avatar: Url('The round picture in the list: http(s).'),
  pinned: Type.Optional(Type.Boolean({ default: false })),
};

const SettingsSchema = Type.Object(
  {
    color: Type.Optional(Colour('The stories’ names.')),
    font_size: Type.Optional(Type.Integer({ minimum: 6, maximum: 48 })),
    avatar_size: Type.Optional(Type.Integer({ minimum: 20, maximum: 200 })),
    close_color: Type.Optional(Colour('The close button.')),
    border_viewed: Type.Optional(Colour('The ring of a viewed story.')),
    border_not_viewed: Type.Optional(Colour('The ring of a story not viewed.')),
    background_pin: Type.Optional(Colour('The pin of a pinned story.')),
    background_progress: Type.Optional(Colour('The progress bars.')),
    pin_symbol: Type.Optional(Type.String({ maxLength: 8 })),
    background: Type.Optional(Colour('Behind the list.')),
    background_opacity: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
  },
  {
    additionalProperties: false,
    description: 'Display settings; what is not given is answered with its default (docs/stories.md "Settings").',
  },
);

export const PutStorySetBodySchema = Type.Object(
  {
    name: Type.Optional(Type.Union([Type.String({ maxLength: MAX_NAME_LENGTH }), Type.Null()], { description: 'What the team calls it.' })),
    settings: Type.Optional(SettingsSchema),
    stories: Type.Array(
      Type.Object(
        {
          id: IdField,
          ...StoryFields,
          slides: Type.Array(Type.Object({ id: IdField, ...SlideFields }, { additionalProperties: false }), {
            minItems: 1,
            maxItems: MAX_SLIDES_PER_STORY,
          }),
        },
        { additionalProperties: false },
      ),
      { maxItems: MAX_STORIES_PER_SET, description: 'In the order apps show them.' },
    ),
  },
  { additionalProperties: false },
);
export type PutStorySetBody = Static<typeof PutStorySetBodySchema>;

export const StorySetSchema = Type.Object({
  id: Type.Integer({ description: 'What GET /stories/{code} answers as `id`.' }),
  code: Type.String(),
  name: Type.Union([Type.String(), Type.Null()]),
  settings: SettingsSchema,
  stories: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      avatar: Type.String(),
      pinned: Type.Boolean(),
      slides: Type.Array(
        Type.Object({
          id: Type.Integer(),
          type: Type.Union([Type.Literal('image'), Type.Literal('video')]),
          background: Type.String(),
          background_color: Type.Union([Type.String(), Type.Null()]),
          preview: Type.Union([Type.String(), Type.Null()]),
          duration: Type.Integer(),
          elements: Type.Array(StoryElementSchema),
        }),
      ),
    }),
  ),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});
export type StorySetBody = Static<typeof StorySetSchema>;

export const StorySetListSchema = Type.Object({
  story_sets: Type.Array(
    Type.Object({
      id: Type.Integer(),
      code: Type.String(),
      name: Type.Union([Type.String(), Type.Null()]),
      stories: Type.Integer({ description: 'How many stories it holds.' }),
      updated_at: Type.String({ format: 'date-time' }),
    }),
  ),
});

const FiguresFields = {
  views: Type.Integer({ description: 'Devices that viewed it (a device’s repeat is not counted again).' }),
  clicks: Type.Integer({ description: 'Devices that clicked in it.' }),
};

export const StorySetFiguresSchema = Type.Object({
  code: Type.String(),
  stories: Type.Array(
    Type.Object({
      id: Type.Integer(),
      ...FiguresFields,
      slides: Type.Array(Type.Object({ id: Type.Integer(), ...FiguresFields })),
    }),
  ),
});
