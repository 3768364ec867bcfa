// Brings @fastify/swagger's route-schema fields (tags, summary, description) into FastifySchema.
import type {} from '@fastify/swagger';
import { Type } from '@sinclair/typebox';
import { StatusSuccessSchema } from '../../http/envelopes.js';
import { MAX_TAG_LENGTH, SLIDER_CODE_MAX_LENGTH } from '../../modules/sliders/domain/slider.js';
import { ShopIdSchema } from '../common/common.schemas.js';
import { MAX_REQUEST_TAGS } from './slider.params.js';

/**
 * The OpenAPI description of GET /slider. Like every public group's schemas, these document and
 * do not validate: the contract's messages (`Identifier is not valid`) and its order of
 * checks come from slider.params.ts.
 */

export const SLIDER_TAGS = ['sliders'];

const Identifier = (description: string) => Type.Optional(Type.String({ description: `${description} (identifier group).` }));

export const SliderQuerySchema = Type.Object(
  {
    shop_id: ShopIdSchema,
    code: Type.String({
      description: `Slider code set in the admin API: 1 to ${SLIDER_CODE_MAX_LENGTH} letters, digits, _ and -.`,
    }),
    did: Identifier('Device id, 8 to 64 characters [A-Za-z0-9-]'),
    email: Identifier('Email'),
    phone: Identifier('Phone'),
    external_id: Identifier('Customer id in the shop’s database'),
    tags: Type.Optional(
      Type.String({
        description:
          `Comma-separated tags (at most ${MAX_REQUEST_TAGS}, each at most ${MAX_TAG_LENGTH} characters): only ` +
          'slides having at least one of them; slides without tags are left out then. Without tags: every slide.',
      }),
    ),
  },
  {
    additionalProperties: true,
    description: 'At least one of did, email, phone, external_id is required; they are checked, not recorded.',
  },
);

const SlideSchema = Type.Object({
  image_url: Type.String(),
  url: Type.String(),
  deeplink_ios: Type.String({ description: 'Empty when none.' }),
  deeplink_android: Type.String({ description: 'Empty when none.' }),
  content_type: Type.String({ description: 'Service field; empty when none.' }),
  content: Type.String({ description: 'Service field; empty when none.' }),
  html: Type.String({
    description: 'Ready markup: `<a href="url"><img src="image_url" width="W" height="H" alt="content"></a>`, every value escaped.',
  }),
});

export const SliderResponseSchema = StatusSuccessSchema({
  payload: Type.Object({
    properties: Type.Object({ code: Type.String(), width: Type.Integer(), height: Type.Integer() }),
    slides: Type.Array(SlideSchema),
  }),
});
