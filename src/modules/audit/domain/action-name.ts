/**
 * The short name of a change in the audit log (`shop.update`, `loyalty.member.create`),
 * derived from the method and the route's pattern, so that a new route is named without
 * a table to keep: pure.
 *
 * - The scope's prefix goes, and each static segment followed by a parameter names one
 *   thing of its kind, in the singular (`members/:identifier` → `member`); other static
 *   segments stay as they are (`loyalty`, `bonuses`), snake_cased.
 * - Every shop route starts `shops/:shop_id`; the shop is its own column, so `shop` is
 *   dropped unless the change is to the shop itself.
 * - The verb: PUT and PATCH `update`, DELETE `delete`; a POST to a collection (a plural
 *   segment, or one the API lists with a GET) `create`, with the collection in the
 *   singular; any other POST ends with the action it names (`bonuses/debit`,
 *   `rotate-secret`, `generate`).
 * - OVERRIDES name the few routes the rules name badly.
 */

/** Keyed by method and pattern without the scope prefix. */
const OVERRIDES: Readonly<Record<string, string>> = {
  'POST /shops/:shop_id/secret': 'shop.secret.rotate',
  'POST /shops/:shop_id/loyalty/members/:identifier/bonuses': 'loyalty.member.bonuses.credit',
  'POST /shops/:shop_id/channels/web_push/vapid_keys': 'channel.web_push.vapid_keys.generate',
  'POST /session': 'session.sign_in',
  'DELETE /session': 'session.sign_out',
  'POST /session/password': 'session.password.change',
  'POST /invitations/:token': 'invitation.accept',
};

const SCOPE_PREFIX = /^\/admin\/v1(?=\/|$)/;

/**
 * `pattern` is the route's (`/admin/v1/shops/:shop_id`); `listed(pattern)` says whether
 * the API answers a GET at that pattern (a collection it lists).
 */
export function actionName(method: string, pattern: string, listed: (pattern: string) => boolean = () => false): string {
  const local = pattern.replace(SCOPE_PREFIX, '').replace(/\/+$/, '');
  const override = OVERRIDES[`${method} ${local}`];
  if (override) return override;
  const segments = local.split('/').filter((s) => s !== '');
  const nouns: string[] = [];
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as string;
    if (isParam(segment)) continue;
    const next = segments[i + 1];
    nouns.push(snake(next !== undefined && isParam(next) ? singular(segment) : segment));
  }
  if (nouns[0] === 'shop' && nouns.length > 1 && segments[1] !== undefined && isParam(segments[1])) nouns.shift();
  const verb = verbOf(method, segments, nouns, pattern, listed);
  return [...nouns, ...(verb ? [verb] : [])].join('.') || 'root';
}

function verbOf(method: string, segments: readonly string[], nouns: string[], pattern: string, listed: (p: string) => boolean): string {
  switch (method) {
    case 'PUT':
    case 'PATCH':
      return 'update';
    case 'DELETE':
      return 'delete';
    case 'POST': {
      const last = segments[segments.length - 1];
      if (last === undefined || isParam(last)) return 'update';
      const noun = nouns.pop() as string;
      if (singular(last) !== last || listed(pattern)) {
        nouns.push(snake(singular(last)));
        return 'create';
      }
      // Not a collection: the segment is the action itself (`debit`, `rotate_secret`).
      return noun;
    }
    default:
      return method.toLowerCase();
  }
}

function isParam(segment: string): boolean {
  return segment.startsWith(':') || segment === '*';
}

function snake(segment: string): string {
  return segment.replace(/-/g, '_');
}

/** English plurals as the API's paths spell them: `deliveries`, `bonuses`, `passes`, `members`. */
export function singular(word: string): string {
  if (/ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(ss|sh|ch|x|us)es$/.test(word)) return word.slice(0, -2);
  if (/[^su]s$/.test(word)) return word.slice(0, -1);
  return word;
}
