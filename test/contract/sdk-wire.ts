/**
 * Requests exactly as the official React Native SDK (4.x) puts them on the wire, so that
 * contract tests send what a real app sends (docs/mobile-sdk.md):
 *  - GET parameters: each value is escaped with encodeURIComponent, the whole string is
 *    then passed through decodeURI (which undoes every escape except those of the
 *    reserved characters `; , / ? : @ & = + $ #`), split back into pairs, and the HTTP
 *    client (axios) escapes each name and value again with its own rule (encodeURIComponent,
 *    then `:`, `$`, `,`, `[` and `]` kept and a space written as `+`). A JavaScript null
 *    becomes the text `null`.
 *  - every request carries `Content-Type: application/x-www-form-urlencoded` (GETs too,
 *    with no body) unless the call sets JSON, and a `ReactNative <OS> SDK v<version>`
 *    User-Agent.
 * Written from the behaviour of encodeURIComponent, decodeURI and axios's documented
 * parameter serialisation; the SDK's own code is not reproduced.
 */

export type SdkValue = string | number | boolean | null;

export const SDK_FORM_TYPE = 'application/x-www-form-urlencoded';
export const SDK_USER_AGENT = 'ReactNative Android SDK v4.0.18';

/** axios's escaping of one query-string name or value. */
function axiosEscape(text: string): string {
  return encodeURIComponent(text)
    .replace(/%3A/gi, ':')
    .replace(/%24/g, '$')
    .replace(/%2C/gi, ',')
    .replace(/%20/g, '+')
    .replace(/%5B/gi, '[')
    .replace(/%5D/gi, ']');
}

/** The query string of an SDK GET with these parameters, in this order. */
export function sdkGetQuery(params: ReadonlyArray<readonly [string, SdkValue]>): string {
  return params
    .map(([name, value]) => {
      const once = decodeURI(encodeURIComponent(String(value)));
      return `${axiosEscape(decodeURI(name))}=${axiosEscape(once)}`;
    })
    .join('&');
}

/** The query string of an SDK POST: the parameters escaped once, by axios alone. */
export function sdkPostQuery(params: ReadonlyArray<readonly [string, SdkValue]>): string {
  return params.map(([name, value]) => `${axiosEscape(name)}=${axiosEscape(String(value))}`).join('&');
}

/** Headers of an SDK GET (and of a POST that does not ask for JSON). */
export const SDK_GET_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': SDK_FORM_TYPE,
  'user-agent': SDK_USER_AGENT,
});

/** Keys whose array values the SDK joins with commas instead of indexing (its search keys). */
const COMMA_JOINED_KEYS: ReadonlySet<string> = new Set([
  'categories',
  'locations',
  'brands',
  'colors',
  'fashion_sizes',
  'exclude',
  'merchants',
  'excluded_merchants',
]);

export type SdkParam = SdkValue | undefined | readonly SdkParam[] | { readonly [key: string]: SdkParam };

/**
 * The name/value pairs the SDK's GET encoder makes of a params object: a nested object
 * becomes bracket names (`filters[Colour]`), an array under one of its search keys one
 * comma-joined value (`brands=Nike,Adidas`), any other array indexed brackets
 * (`filters[Colour][0]=red`); undefined values are left out. Feed the pairs to sdkGetQuery.
 */
export function sdkParamPairs(params: { readonly [key: string]: SdkParam }): Array<[string, SdkValue]> {
  const pairs: Array<[string, SdkValue]> = [];
  const walk = (name: string, key: string, value: SdkParam): void => {
    if (value === undefined) return;
    if (Array.isArray(value)) {
      if (COMMA_JOINED_KEYS.has(key)) pairs.push([name, value.join(',')]);
      else value.forEach((element: SdkParam, i) => walk(`${name}[${i}]`, String(i), element));
    } else if (value !== null && typeof value === 'object') {
      for (const [child, element] of Object.entries(value as { readonly [key: string]: SdkParam }))
        walk(`${name}[${child}]`, child, element);
    } else {
      pairs.push([name, value]);
    }
  };
  for (const [key, value] of Object.entries(params)) walk(key, key, value);
  return pairs;
}
