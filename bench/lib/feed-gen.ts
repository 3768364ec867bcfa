import fs from 'node:fs';
import { once } from 'node:events';

/**
 * A generated YML feed for the catalog bench, written to a file as a stream (never whole
 * in memory): 3 levels of categories (10 roots, 10 children each, 5 grandchildren each),
 * offers spread over the leaves, every third with an oldprice, two params each, a
 * picture link, a few locations, and groups of variants.
 */
export interface GeneratedFeed {
  readonly offers: number;
  readonly categories: number;
  readonly bytes: number;
  readonly offerIds: (i: number) => string;
}

const LOCATIONS = ['msk', 'spb', 'ekb', 'nsk'];

export async function writeYmlFeed(file: string, offers: number): Promise<GeneratedFeed> {
  const out = fs.createWriteStream(file);
  let bytes = 0;
  const write = async (text: string): Promise<void> => {
    bytes += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, 'drain');
  };

  await write('<?xml version="1.0" encoding="UTF-8"?>\n<yml_catalog date="2026-11-23 00:00"><shop>\n');
  await write('<name>Bench shop</name><currencies><currency id="RUB" rate="1"/></currencies>\n<categories>\n');
  const leaves: string[] = [];
  for (let r = 1; r <= 10; r++) {
    await write(`<category id="${r}">Раздел ${r}</category>\n`);
    for (let c = 1; c <= 10; c++) {
      const child = `${r}-${c}`;
      await write(`<category id="${child}" parentId="${r}">Категория ${child}</category>\n`);
      for (let g = 1; g <= 5; g++) {
        const leaf = `${child}-${g}`;
        leaves.push(leaf);
        await write(`<category id="${leaf}" parentId="${child}">Подкатегория ${leaf}</category>\n`);
      }
    }
  }
  await write('</categories>\n<locations>\n');
  for (const id of LOCATIONS) await write(`<location id="${id}" name="City ${id}" type="city"/>\n`);
  await write('</locations>\n<offers>\n');

  for (let i = 0; i < offers; i++) {
    const price = 100 + ((i * 7919) % 99_900);
    const old = i % 3 === 0 ? `<oldprice>${price + 500}.00</oldprice>` : '';
    const group = i % 10 < 3 ? ` group_id="g${Math.floor(i / 10)}"` : '';
    const leaf = leaves[i % leaves.length]!;
    await write(
      `<offer id="sku-${i}" available="${i % 17 === 0 ? 'false' : 'true'}"${group}>` +
        `<url>https://shop.example.org/p/sku-${i}?ref=feed</url><price>${price}.50</price>${old}` +
        `<currencyId>RUB</currencyId><categoryId>${leaf}</categoryId>` +
        `<picture>https://img.example.org/p/${i}.jpg</picture>` +
        `<name>Товар номер ${i} &amp; аксессуар</name><vendor>Brand ${i % 97}</vendor><model>M-${i}</model>` +
        `<vendorCode>VC${i}</vendorCode><barcode>${4_600_000_000_000 + i}</barcode>` +
        `<description><![CDATA[Описание товара ${i}: <b>прочный</b> и лёгкий.]]></description>` +
        `<param name="Цвет">${['red', 'green', 'blue'][i % 3]}</param><param name="Вес" unit="г">${i % 1000}</param>` +
        `<locations><location id="${LOCATIONS[i % LOCATIONS.length]}"/></locations>` +
        '</offer>\n',
    );
  }
  await write('</offers>\n</shop></yml_catalog>\n');
  out.end();
  await once(out, 'finish');
  return { offers, categories: leaves.length + 110, bytes, offerIds: (i) => `sku-${i}` };
}
