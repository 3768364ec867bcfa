/**
 * `url_handle`, `image_url_handle` and categories' `url_handle` (interface.md, "Product":
 * "link without domain"): the link without its scheme and host, keeping path, query and
 * fragment exactly as the feed spelled them (no percent-encoding, no normalisation), so
 * a storefront can prefix its own host. Pure.
 *
 *   https://shop.example/p/1?color=red#top → /p/1?color=red#top
 *   https://shop.example                   → /
 *   //cdn.example/a.jpg                    → /a.jpg
 *   /p/1 (already relative)                → /p/1
 */
const SCHEME_AND_HOST = /^(?:[A-Za-z][A-Za-z0-9+.-]*:)?\/\/[^/?#]*/;

export function linkHandle(link: string): string {
  const match = SCHEME_AND_HOST.exec(link);
  if (!match) return link;
  const rest = link.slice(match[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/**
 * A category's slug, the last segment of its link's path, percent-decoded (kept as
 * spelled when it does not decode): the name storefronts and the SDKs' docs put in
 * GET /category/{slug}. Undefined for a link with no path.
 *
 *   https://shop.example/catalog/t-shirts/?sort=new → t-shirts
 */
export function categorySlug(link: string): string | undefined {
  const path = linkHandle(link).replace(/[?#].*$/s, '');
  const segment = path
    .split('/')
    .filter((part) => part !== '')
    .at(-1);
  if (segment === undefined) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
