/**
 * A streaming reader of YML (Yandex Market Language) feeds on saxes: text goes in by
 * chunks, categories, locations and offers come out as soon as each one closes, so a
 * feed of any size is read in constant memory. Pure: no I/O (the caller reads the bytes).
 *
 * Read: yml_catalog/shop/categories/category[id, parentId, url], shop/locations/location
 * [id, name, type, parentId] (Patron's extension; see docs/catalog-import.md) and
 * shop/offers/offer[id, available, group_id] with its children. Everything else is
 * passed over. Field text is bounded while it is read, never after.
 */
import { SaxesParser } from 'saxes';
import { cut, detach, emptyRawOffer, FEED_LIMITS, FeedFormatError, type FeedItem, type RawOffer } from './feed-types.js';
import { attr, HTML_ENTITIES, OFFER_FIELDS, setOfferField, type Tag } from './feed-yml-fields.js';

const MAX_DEPTH = 64;

export class YmlFeedParser {
  private readonly sax = new SaxesParser<{ xmlns: false }>({ xmlns: false });
  private readonly stack: string[] = [];
  private items: FeedItem[] = [];
  private counts = { offers: 0, categories: 0, locations: 0 };
  private sawShop = false;
  private sawOffers = false;

  private offer: RawOffer | undefined;
  /** The element whose text is being collected, its attributes, and the text so far. */
  private field: { name: string; tag: Tag; depth: number; max: number; text: string } | undefined;

  constructor() {
    Object.assign(this.sax.ENTITIES, HTML_ENTITIES);
    this.sax.on('opentag', (tag) => this.open(tag));
    this.sax.on('closetag', () => this.close());
    this.sax.on('text', (text) => this.text(text));
    this.sax.on('cdata', (text) => this.text(text));
  }

  /** Feeds a chunk of the document; throws FeedFormatError when it is not a YML feed. */
  write(chunk: string): void {
    this.guard(() => this.sax.write(chunk));
  }

  /** The end of the document: throws FeedFormatError when it is cut short or lacks its parts. */
  end(): void {
    this.guard(() => this.sax.close());
    if (!this.sawShop) throw new FeedFormatError('The feed has no yml_catalog/shop element.');
    if (!this.sawOffers) throw new FeedFormatError('The feed has no yml_catalog/shop/offers element.');
  }

  /** What was read since the last call, in document order. */
  drain(): FeedItem[] {
    const items = this.items;
    this.items = [];
    return items;
  }

  private guard(work: () => void): void {
    try {
      work();
    } catch (error) {
      if (error instanceof FeedFormatError) throw error;
      // saxes says "line:column: what"; the position is worth keeping, in words.
      const message = (error as Error).message;
      const located = /^(\d+):(\d+): (.*)$/s.exec(message);
      throw new FeedFormatError(
        located
          ? `The feed is not well-formed XML (line ${located[1]}, column ${located[2]}): ${located[3]}`
          : `The feed is not well-formed XML: ${message}`,
      );
    }
  }

  private path(): string {
    return this.stack.join('/');
  }

  // Offer children are most of a feed's elements: they are told apart by depth and a
  // map lookup; the joined path is built only for the few elements above them.
  private open(tag: Tag): void {
    if (this.stack.length === 0 && tag.name !== 'yml_catalog') {
      throw new FeedFormatError(`The feed's root element is <${cut(tag.name, 64)}>, not <yml_catalog>.`);
    }
    this.stack.push(tag.name);
    const depth = this.stack.length;
    if (depth > MAX_DEPTH) throw new FeedFormatError(`The feed nests elements deeper than ${MAX_DEPTH}.`);
    if (this.offer !== undefined) {
      this.openInOffer(tag, depth);
      return;
    }
    if (depth > 4) return;
    switch (this.path()) {
      case 'yml_catalog/shop':
        this.sawShop = true;
        return;
      case 'yml_catalog/shop/offers':
        this.sawOffers = true;
        return;
      case 'yml_catalog/shop/offers/offer':
        this.startOffer(tag);
        return;
      case 'yml_catalog/shop/categories/category':
        this.field = { name: 'category', tag, depth, max: FEED_LIMITS.name, text: '' };
        return;
      case 'yml_catalog/shop/locations/location':
        this.location(tag);
        return;
    }
  }

  private openInOffer(tag: Tag, depth: number): void {
    // yml_catalog/shop/offers/offer is depth 4: its fields are at 5, location at 6.
    if (depth === 5) {
      const max = OFFER_FIELDS.get(tag.name);
      if (max !== undefined) this.field = { name: tag.name, tag, depth, max, text: '' };
    } else if (depth === 6 && tag.name === 'location' && this.stack[4] === 'locations') {
      const id = attr(tag, 'id', FEED_LIMITS.id + 1);
      const offer = this.offer as RawOffer;
      if (id !== undefined && offer.locationIds.length < FEED_LIMITS.locationsPerOffer) offer.locationIds.push(id);
    }
  }

  private startOffer(tag: Tag): void {
    this.counts.offers += 1;
    if (this.counts.offers > FEED_LIMITS.offers) {
      throw new FeedFormatError(`The feed has more than ${FEED_LIMITS.offers} offers.`);
    }
    const offer = emptyRawOffer();
    offer.id = attr(tag, 'id', FEED_LIMITS.id + 1);
    offer.available = attr(tag, 'available');
    offer.groupId = attr(tag, 'group_id', FEED_LIMITS.id + 1);
    this.offer = offer;
  }

  private location(tag: Tag): void {
    this.counts.locations += 1;
    if (this.counts.locations > FEED_LIMITS.locations) {
      throw new FeedFormatError(`The feed has more than ${FEED_LIMITS.locations} locations.`);
    }
    const id = attr(tag, 'id', FEED_LIMITS.id + 1);
    if (id === undefined || id.length > FEED_LIMITS.id) {
      this.items.push({ kind: 'note', id: id?.slice(0, 64) ?? '', reason: 'location has no usable id; ignored' });
      return;
    }
    this.items.push({
      kind: 'location',
      location: {
        id,
        name: attr(tag, 'name'),
        type: attr(tag, 'type'),
        parentId: attr(tag, 'parentId', FEED_LIMITS.id),
      },
    });
  }

  private text(text: string): void {
    const field = this.field;
    if (field === undefined || field.text.length >= field.max) return;
    field.text += text.length > field.max - field.text.length ? cut(text, field.max - field.text.length) : text;
  }

  private close(): void {
    const depth = this.stack.length;
    const name = this.stack.pop();
    if (this.field !== undefined && this.field.depth === depth) {
      const field = this.field;
      this.field = undefined;
      const text = detach(field.text);
      if (field.name === 'category') this.category(field.tag, text);
      else setOfferField(this.offer as RawOffer, field.name, field.tag, text);
      return;
    }
    // An offer is only ever opened at yml_catalog/shop/offers/offer (depth 4).
    if (depth === 4 && name === 'offer' && this.offer !== undefined) {
      this.items.push({ kind: 'offer', offer: this.offer });
      this.offer = undefined;
    }
  }

  private category(tag: Tag, name: string): void {
    this.counts.categories += 1;
    if (this.counts.categories > FEED_LIMITS.categories) {
      throw new FeedFormatError(`The feed has more than ${FEED_LIMITS.categories} categories.`);
    }
    const id = attr(tag, 'id', FEED_LIMITS.id + 1);
    if (id === undefined || id.length > FEED_LIMITS.id) {
      this.items.push({ kind: 'note', id: id?.slice(0, 64) ?? '', reason: 'category has no usable id; ignored' });
      return;
    }
    const url = attr(tag, 'url', FEED_LIMITS.url + 1);
    this.items.push({
      kind: 'category',
      category: {
        id,
        parentId: attr(tag, 'parentId', FEED_LIMITS.id),
        name: name.trim(),
        url: url !== undefined && url.length <= FEED_LIMITS.url ? url : undefined,
      },
    });
  }
}
