import { THUMBNAIL_SIZES } from '../../modules/images/images.types.js';

/**
 * A product of GET /products/get as GET /recommend answers it (contract-notes "Beyond
 * interface.md"): its links carry `recommended_by=dynamic&recommended_code=<code>`, so
 * the view that follows a tap is credited to the block; with `resize_image`, `picture`
 * and `image_url` are the thumbnail of that size.
 */

type ProductObject = Record<string, unknown>;

/**
 * A product's answer text per block and thumbnail size, kept beside the product's own
 * cached JSON (products.service keeps one Buffer per product while it is fresh): an
 * extended block of Zipf-popular products then parses and re-serialises each product once,
 * not on every request. It goes when the product's Buffer does.
 */
const mapped = new WeakMap<Buffer, Map<string, string>>();

/** toRecommendedProduct as JSON text, from the cache above when the same product JSON was mapped before. */
export function recommendedProductJson(productJson: Buffer, code: string, resizeImage: number | undefined): string {
  let byVariant = mapped.get(productJson);
  if (byVariant === undefined) mapped.set(productJson, (byVariant = new Map<string, string>()));
  const key = `${code}\n${resizeImage ?? ''}`;
  let text = byVariant.get(key);
  if (text === undefined) byVariant.set(key, (text = JSON.stringify(toRecommendedProduct(productJson, code, resizeImage))));
  return text;
}

export function toRecommendedProduct(productJson: Buffer, code: string, resizeImage: number | undefined): ProductObject {
  const product = JSON.parse(productJson.toString('utf8')) as ProductObject;
  product.id = String(product.id);
  if (typeof product.url === 'string') product.url = withRecommendedBy(product.url, code);
  if (typeof product.url_handle === 'string') product.url_handle = withRecommendedBy(product.url_handle, code);
  const resized = product.image_url_resized as Record<string, string> | null | undefined;
  if (resizeImage !== undefined && resized) {
    const link = resized[String(thumbnailSize(resizeImage))];
    if (link !== undefined) {
      product.picture = link;
      product.image_url = link;
    }
  }
  return product;
}

/** The smallest thumbnail at least `size` wide, or the largest there is. */
export function thumbnailSize(size: number): number {
  return THUMBNAIL_SIZES.find((made) => made >= size) ?? THUMBNAIL_SIZES[THUMBNAIL_SIZES.length - 1]!;
}

/** The link with the two parameters added to its query, before any fragment; any earlier values of them give way. */
export function withRecommendedBy(link: string, code: string): string {
  const hash = link.indexOf('#');
  const base = hash < 0 ? link : link.slice(0, hash);
  const fragment = hash < 0 ? '' : link.slice(hash);
  const question = base.indexOf('?');
  const path = question < 0 ? base : base.slice(0, question);
  const kept = (question < 0 ? '' : base.slice(question + 1))
    .split('&')
    .filter((pair) => pair !== '' && !/^recommended_(by|code)(=|$)/.test(pair));
  kept.push('recommended_by=dynamic', `recommended_code=${encodeURIComponent(code)}`);
  return `${path}?${kept.join('&')}${fragment}`;
}
