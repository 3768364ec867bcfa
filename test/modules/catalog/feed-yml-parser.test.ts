import { describe, expect, it } from 'vitest';
import { FeedDecoder } from '../../../src/modules/catalog/domain/feed-decoder.js';
import { FeedFormatError, type FeedItem, type RawOffer } from '../../../src/modules/catalog/domain/feed-types.js';
import { YmlFeedParser } from '../../../src/modules/catalog/domain/feed-yml-parser.js';
import { buildYml, sampleFeed } from '../../helpers/feed-builder.js';

/** Parses `text` in chunks of `chunk` characters, as a stream would deliver it. */
function parse(text: string, chunk = 7): FeedItem[] {
  const parser = new YmlFeedParser();
  const items: FeedItem[] = [];
  for (let i = 0; i < text.length; i += chunk) {
    parser.write(text.slice(i, i + chunk));
    items.push(...parser.drain());
  }
  parser.end();
  items.push(...parser.drain());
  return items;
}

function offers(items: FeedItem[]): RawOffer[] {
  return items.flatMap((item) => (item.kind === 'offer' ? [item.offer] : []));
}

function wrap(offersXml: string, head = ''): string {
  return `<?xml version="1.0" encoding="UTF-8"?><yml_catalog><shop>${head}<offers>${offersXml}</offers></shop></yml_catalog>`;
}

function failure(text: string): string {
  try {
    parse(text);
  } catch (error) {
    expect(error).toBeInstanceOf(FeedFormatError);
    return (error as Error).message;
  }
  throw new Error('the document was accepted');
}

describe('YML feed parser', () => {
  it('reads every field of an offer, its attributes and repeated categoryId, picture and param', () => {
    const [offer] = offers(
      parse(
        wrap(`<offer id="A1" available="false" group_id="G7" type="vendor.model">
          <url>https://shop.example/p/a1</url><price>1 990,50</price><oldprice>2490</oldprice>
          <currencyId>RUB</currencyId><categoryId>10</categoryId><categoryId>11</categoryId>
          <picture>https://img.example/1.jpg</picture><picture>https://img.example/2.jpg</picture>
          <name>Runner</name><vendor>Acme</vendor><model>R-1</model><vendorCode>AC-1</vendorCode>
          <barcode>4600000000011</barcode><description>Light shoes</description>
          <param name="Size" unit="EU">42</param><param name="Size" unit="EU">43</param><param name="Color">red</param>
          <locations><location id="msk"/><location id="spb"/></locations>
          <deeplink_android>app://a1</deeplink_android><deeplink_ios>ios://a1</deeplink_ios>
          <sales_rate>7</sales_rate><ignored>true</ignored><unknown>passed over</unknown>
        </offer>`),
      ),
    );
    expect(offer).toEqual({
      id: 'A1',
      available: 'false',
      groupId: 'G7',
      url: 'https://shop.example/p/a1',
      price: '1 990,50',
      oldprice: '2490',
      currencyId: 'RUB',
      categoryIds: ['10', '11'],
      pictures: ['https://img.example/1.jpg', 'https://img.example/2.jpg'],
      name: 'Runner',
      vendor: 'Acme',
      model: 'R-1',
      vendorCode: 'AC-1',
      barcode: '4600000000011',
      description: 'Light shoes',
      params: [
        { name: 'Size', value: '42', unit: 'EU' },
        { name: 'Size', value: '43', unit: 'EU' },
        { name: 'Color', value: 'red', unit: undefined },
      ],
      locationIds: ['msk', 'spb'],
      deeplinkAndroid: 'app://a1',
      deeplinkIos: 'ios://a1',
      salesRate: '7',
      ignored: 'true',
    });
  });

  it('reads categories with parents and links, and shop locations, in document order', () => {
    const items = parse(
      buildYml({
        categories: [
          { id: '1', name: 'Clothes', url: 'https://shop.example/c/1' },
          { id: '2', name: 'Shoes', parentId: '1' },
        ],
        locations: [{ id: 'msk', name: 'Moscow', type: 'city', parentId: 'ru' }],
        offers: [{ id: 'x', price: 1 }],
      }),
    );
    expect(items.map((i) => i.kind)).toEqual(['category', 'category', 'location', 'offer']);
    expect(items[0]).toEqual({
      kind: 'category',
      category: { id: '1', parentId: undefined, name: 'Clothes', url: 'https://shop.example/c/1' },
    });
    expect(items[1]).toEqual({ kind: 'category', category: { id: '2', parentId: '1', name: 'Shoes', url: undefined } });
    expect(items[2]).toEqual({ kind: 'location', location: { id: 'msk', name: 'Moscow', type: 'city', parentId: 'ru' } });
  });

  it('decodes entities, character references and CDATA, including HTML entities real feeds use', () => {
    const [offer] = offers(
      parse(
        wrap(`<offer id="e&amp;1"><name>Tom &amp; Jerry&nbsp;&laquo;Gold&raquo; &#8470;1 &#x41;</name>
          <description><![CDATA[<p>Bold & <b>bright</b></p>]]></description></offer>`),
      ),
    );
    expect(offer?.id).toBe('e&1');
    expect(offer?.name).toBe('Tom & Jerry\u00A0«Gold» №1 A');
    expect(offer?.description).toBe('<p>Bold & <b>bright</b></p>');
  });

  it('passes on an offer without an id (the rules skip it with a reason)', () => {
    const list = offers(parse(wrap('<offer><name>No id</name></offer><offer id="ok"/>')));
    expect(list.map((o) => o.id)).toEqual([undefined, 'ok']);
  });

  it('notes a category without an id instead of reading it', () => {
    const items = parse(wrap('', '<categories><category>Orphan</category></categories>'));
    expect(items).toEqual([{ kind: 'note', id: '', reason: 'category has no usable id; ignored' }]);
  });

  it('cuts long text while reading it and keeps one extra character of a link to show it is too long', () => {
    const [offer] = offers(
      parse(wrap(`<offer id="l"><name>${'n'.repeat(5000)}</name><url>https://x/${'u'.repeat(5000)}</url></offer>`), 4096),
    );
    expect(offer?.name).toHaveLength(1000);
    expect(offer?.url).toHaveLength(2049);
  });

  it('gives the same offers whatever the chunk boundaries', () => {
    const text = buildYml(sampleFeed());
    expect(parse(text, 1)).toEqual(parse(text, text.length));
  });

  it.each([
    ['plain text', 'this is not XML', /not well-formed XML/],
    ['JSON', '{"offers":[]}', /not well-formed XML/],
    ['an empty body', '', /not well-formed XML/],
    ['another root element', '<rss><channel/></rss>', /root element is <rss>, not <yml_catalog>/],
    ['a document without offers', '<yml_catalog><shop><categories/></shop></yml_catalog>', /no yml_catalog\/shop\/offers/],
    ['a document without a shop', '<yml_catalog/>', /no yml_catalog\/shop element/],
    ['truncated XML', wrap('<offer id="1"><name>Cut').slice(0, 90), /not well-formed XML/],
    ['mismatched tags', wrap('<offer id="1"><name>x</price></offer>'), /not well-formed XML \(line 1, column \d+\)/],
    ['an undefined entity', wrap('<offer id="1"><name>&bogus;</name></offer>'), /not well-formed XML/],
  ])('refuses %s with a sentence', (_label, text, pattern) => {
    const message = failure(text);
    expect(message).toMatch(pattern);
    expect(message).toMatch(/\.$/);
  });

  it('refuses nesting deeper than 64 elements', () => {
    const deep = `${'<x>'.repeat(70)}${'</x>'.repeat(70)}`;
    expect(failure(wrap('', deep))).toMatch(/deeper than 64/);
  });
});

describe('feed decoder', () => {
  const decodeAll = (bytes: Buffer, format: 'yml' | 'json' = 'yml', charset?: string, chunk = 3): string => {
    const decoder = new FeedDecoder(format, charset);
    let text = '';
    for (let i = 0; i < bytes.length; i += chunk) text += decoder.decode(bytes.subarray(i, i + chunk));
    return text + decoder.end();
  };
  // "Привет" in windows-1251.
  const cp1251 = Buffer.from([0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2]);

  it('reads the encoding the XML declaration names (windows-1251)', () => {
    const bytes = Buffer.concat([Buffer.from('<?xml version="1.0" encoding="windows-1251"?><a>'), cp1251, Buffer.from('</a>')]);
    expect(decodeAll(bytes)).toBe('<?xml version="1.0" encoding="windows-1251"?><a>Привет</a>');
  });

  it('lets a charset declared by the transport win', () => {
    const bytes = Buffer.concat([Buffer.from('<a>'), cp1251, Buffer.from('</a>')]);
    expect(decodeAll(bytes, 'yml', 'windows-1251')).toBe('<a>Привет</a>');
  });

  it('reads UTF-8 by default, a multi-byte character split across chunks included', () => {
    expect(decodeAll(Buffer.from('<a>Привет</a>'), 'yml', undefined, 1)).toBe('<a>Привет</a>');
    expect(decodeAll(Buffer.from('{"a":"Привет"}'), 'json', undefined, 1)).toBe('{"a":"Привет"}');
  });

  it('refuses an encoding it does not know', () => {
    expect(() => decodeAll(Buffer.from('<?xml version="1.0" encoding="x-klingon"?><a/>'))).toThrow(/encoding "x-klingon" is not supported/);
  });
});
