import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { StatusSuccessSchema } from '../../http/envelopes.js';
import type { PopupOffer } from '../../modules/popups/index.js';
import { authenticatedShop } from '../auth.js';

/**
 * The popup a public answer may carry (contract-notes "Beyond interface.md"; docs/popups.md
 * "What the app sees"). The routes whose answers the SDKs look into for a popup (/init,
 * /push, /push/custom, /track/*, /recommend, /profile/set, and any later one such as
 * /track/stories) spread `await popupField(request)` into their success body and add
 * `PopupFieldSchema` to its schema; the modules never know which envelope it rides in.
 */

export const PopupAnswerSchema = Type.Object(
  {
    id: Type.Integer({ description: 'The popup id to report in POST /popup/showed.' }),
    channels: Type.Array(Type.String(), { description: 'Subscription channels the popup collects (email, sms, web_push, mobile_push).' }),
    position: Type.String({ description: 'centered, fixed_bottom, top, slide_right or slide_left.' }),
    delay: Type.Integer({ description: 'Seconds the app waits before showing it.' }),
    html: Type.String({ description: 'The HTML exactly as the shop wrote it; empty for a popup of components.' }),
    web_push_system: Type.Boolean({ description: 'Ask for web push permission with the browser’s own prompt.' }),
    components: Type.String({ description: 'JSON object text of texts: header, text, image, button, *_enabled …; `{}` for none.' }),
    popup_actions: Type.String({
      description:
        'JSON object text: `link` {button_text, link_ios, link_android, link_web}, `close` {button_text}, ' +
        '`system_mobile_push_subscribe` {button_text} (asks for push permission); `{}` for none.',
    }),
  },
  { description: 'A popup for the device: at most one an answer, at most one a minute, never one the device was shown.' },
);

/** The optional `popup` property, for a route's success schema. */
export const PopupFieldSchema = { popup: Type.Optional(PopupAnswerSchema) };

/** `{"status":"success"}` that may carry a popup. */
export const StatusOkWithPopupSchema = StatusSuccessSchema(PopupFieldSchema);

const MAX_CONTEXT_LENGTH = 255;

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' && value.length <= MAX_CONTEXT_LENGTH ? value : undefined;
}

/**
 * `{popup}` when a popup matches the device (`did` of the request unless given: /init
 * passes the one it issued), its `stream` and its `target_screen`; `{}` otherwise. A
 * failure to look one up is logged and answers no popup: what the request did has been
 * done, and an error would make the SDK send it again.
 */
export async function popupField(request: FastifyRequest, context: { readonly did?: string } = {}): Promise<{ popup?: PopupOffer }> {
  const did = context.did ?? text(request.input.did);
  if (did === undefined) return {};
  try {
    const shop = authenticatedShop(request);
    const popup = await request.server.services.popupOffers.offerFor(shop.shopId, did, {
      stream: text(request.input.stream),
      screen: text(request.input.target_screen),
    });
    return popup ? { popup } : {};
  } catch (error) {
    request.log.error({ err: error }, 'popup lookup failed');
    return {};
  }
}
