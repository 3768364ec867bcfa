/**
 * The demo shop's product feed: a small YML catalog (two levels of categories, a
 * discounted product, variants, params, locations and one product without a price, which
 * GET /products/not_widgetable lists). Pictures are left out: the demo should not try to
 * download anything.
 */

interface DemoOffer {
  readonly id: string;
  readonly name: string;
  readonly category: string;
  readonly price?: string;
  readonly oldprice?: string;
  readonly vendor: string;
  readonly group?: string;
  readonly params?: Readonly<Record<string, string>>;
  readonly location?: string;
}

const CATEGORIES: ReadonlyArray<readonly [id: string, name: string, parent?: string]> = [
  ['10', 'Clothing'],
  ['11', 'T-shirts', '10'],
  ['12', 'Jackets', '10'],
  ['20', 'Home'],
  ['21', 'Kitchen', '20'],
];

export const DEMO_OFFERS: readonly DemoOffer[] = [
  {
    id: '1001',
    name: 'Cotton T-shirt, white, S',
    category: '11',
    price: '990',
    vendor: 'Northwind',
    group: 'tee-white',
    params: { Size: 'S', Colour: 'white' },
  },
  {
    id: '1002',
    name: 'Cotton T-shirt, white, M',
    category: '11',
    price: '990',
    vendor: 'Northwind',
    group: 'tee-white',
    params: { Size: 'M', Colour: 'white' },
  },
  {
    id: '1003',
    name: 'Linen T-shirt, sand',
    category: '11',
    price: '1490',
    oldprice: '1990',
    vendor: 'Northwind',
    params: { Colour: 'sand' },
  },
  { id: '1101', name: 'Rain jacket', category: '12', price: '5990.50', oldprice: '7490', vendor: 'Fjellform', location: 'spb' },
  { id: '1102', name: 'Down jacket', category: '12', price: '12990', vendor: 'Fjellform', location: 'msk' },
  { id: '2001', name: 'Cast-iron pan, 26 cm', category: '21', price: '3290', vendor: 'Hearth & Co', params: { Diameter: '26' } },
  { id: '2002', name: 'Chef knife', category: '21', price: '2490', vendor: 'Hearth & Co' },
  { id: '2003', name: 'Teapot (price on request)', category: '21', vendor: 'Hearth & Co' },
];

const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function demoFeedYml(): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<yml_catalog date="2026-01-01 00:00">', '<shop>', '<name>Demo shop</name>'];
  lines.push('<categories>');
  for (const [id, name, parent] of CATEGORIES) {
    lines.push(`<category id="${id}"${parent ? ` parentId="${parent}"` : ''}>${escape(name)}</category>`);
  }
  lines.push('</categories>');
  lines.push(
    '<locations><location id="msk" name="Moscow" type="city"/><location id="spb" name="Saint Petersburg" type="city"/></locations>',
  );
  lines.push('<offers>');
  for (const offer of DEMO_OFFERS) {
    const parts = [
      `<offer id="${offer.id}" available="true"${offer.group ? ` group_id="${offer.group}"` : ''}>`,
      `<url>https://demo.patron.invalid/products/${offer.id}</url>`,
      offer.price ? `<price>${offer.price}</price>` : '',
      offer.oldprice ? `<oldprice>${offer.oldprice}</oldprice>` : '',
      '<currencyId>RUB</currencyId>',
      `<categoryId>${offer.category}</categoryId>`,
      `<name>${escape(offer.name)}</name>`,
      `<vendor>${escape(offer.vendor)}</vendor>`,
      ...Object.entries(offer.params ?? {}).map(([name, value]) => `<param name="${escape(name)}">${escape(value)}</param>`),
      offer.location ? `<locations><location id="${offer.location}"/></locations>` : '',
      '</offer>',
    ];
    lines.push(parts.join(''));
  }
  lines.push('</offers>', '</shop>', '</yml_catalog>');
  return `${lines.join('\n')}\n`;
}
