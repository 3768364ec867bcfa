import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppleWalletSettings } from '../../../../src/modules/messaging/providers/apple-wallet.settings.js';
import { buildPkpass, PassBuildError } from '../../../../src/modules/messaging/wallet/pass-builder.js';
import { makePassCertificates, type PassCertificates } from '../../../helpers/pass-certificates.js';
import { readZip } from '../../../helpers/zip-reader.js';

const PASS_TYPE = 'pass.org.patron.test';
const TEAM = 'ABCDE12345';

describe('the .pkpass builder', () => {
  let certs: PassCertificates;
  let settings: AppleWalletSettings;

  beforeAll(() => {
    certs = makePassCertificates(PASS_TYPE, TEAM);
    settings = {
      pass_type_identifier: PASS_TYPE,
      team_identifier: TEAM,
      organization_name: 'Corner Shop',
      signer_certificate: certs.signerCertificate,
      signer_key: certs.signerKey,
      wwdr_certificate: certs.wwdrCertificate,
      logo_text: 'Corner',
      background_color: '#102030',
      foreground_color: '#ffffff',
    };
  });
  afterAll(() => certs.cleanup());

  function build(overrides: Partial<Parameters<typeof buildPkpass>[0]> = {}) {
    return buildPkpass({
      serialNumber: 'Serial_0123456789abcdef',
      authenticationToken: 'T'.repeat(43),
      webServiceUrl: 'https://patron.example.org/wallet/shop1',
      settings,
      card: { memberIdentifier: '79001234567', balance: 12_345 },
      message: 'Your order has shipped',
      ...overrides,
    });
  }

  it('writes pass.json with the identity, web service, card and message fields', () => {
    const pass = JSON.parse(readZip(build()).get('pass.json')!.toString('utf8'));
    expect(pass).toMatchObject({
      formatVersion: 1,
      passTypeIdentifier: PASS_TYPE,
      teamIdentifier: TEAM,
      organizationName: 'Corner Shop',
      description: 'Corner Shop loyalty card',
      serialNumber: 'Serial_0123456789abcdef',
      authenticationToken: 'T'.repeat(43),
      webServiceURL: 'https://patron.example.org/wallet/shop1',
      logoText: 'Corner',
      backgroundColor: 'rgb(16, 32, 48)',
      foregroundColor: 'rgb(255, 255, 255)',
      barcodes: [{ format: 'PKBarcodeFormatQR', message: '79001234567', messageEncoding: 'iso-8859-1', altText: '79001234567' }],
    });
    expect(pass.storeCard.primaryFields).toEqual([{ key: 'balance', label: 'Balance', value: 123.45, changeMessage: 'Balance: %@' }]);
    expect(pass.storeCard.secondaryFields).toEqual([{ key: 'member', label: 'Member', value: '79001234567' }]);
    expect(pass.storeCard.backFields).toEqual([{ key: 'message', label: 'Message', value: 'Your order has shipped', changeMessage: '%@' }]);
    expect(pass.labelColor).toBeUndefined();
  });

  it('leaves the balance, member and barcode out for a profile that is not a member', () => {
    const pass = JSON.parse(
      readZip(build({ card: { memberIdentifier: null, balance: null } }))
        .get('pass.json')!
        .toString('utf8'),
    );
    expect(pass.barcodes).toBeUndefined();
    expect(pass.storeCard.primaryFields).toEqual([]);
    expect(pass.storeCard.secondaryFields).toEqual([]);
    expect(pass.storeCard.backFields[0].value).toBe('Your order has shipped');
  });

  it('lists every file of the pass in manifest.json with its SHA-1', () => {
    const files = readZip(build());
    const manifest = JSON.parse(files.get('manifest.json')!.toString('utf8')) as Record<string, string>;
    expect(Object.keys(manifest).sort()).toEqual(['icon.png', 'icon@2x.png', 'pass.json']);
    for (const [name, hash] of Object.entries(manifest)) {
      expect(crypto.createHash('sha1').update(files.get(name)!).digest('hex')).toBe(hash);
    }
    // The default icon is a real PNG of the background colour.
    expect(files.get('icon.png')!.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(files.get('icon.png')!.readUInt32BE(16)).toBe(29);
  });

  it('signs the manifest: the detached PKCS #7 signature verifies against the WWDR stand-in', () => {
    const files = readZip(build());
    const dir = fs.mkdtempSync(path.join(certs.dir, 'verify-'));
    fs.writeFileSync(path.join(dir, 'signature'), files.get('signature')!);
    fs.writeFileSync(path.join(dir, 'manifest.json'), files.get('manifest.json')!);
    const verify = (content: string) =>
      execFileSync(
        'openssl',
        [
          'cms',
          '-verify',
          '-binary',
          '-inform',
          'DER',
          '-in',
          'signature',
          '-content',
          content,
          '-CAfile',
          certs.caFile,
          '-purpose',
          'any',
          '-out',
          '/dev/null',
        ],
        { cwd: dir, stdio: 'pipe' },
      );
    expect(() => verify('manifest.json')).not.toThrow();
    // A manifest changed after signing no longer verifies.
    fs.writeFileSync(path.join(dir, 'tampered.json'), files.get('manifest.json')!.toString('utf8').replace('{', '{ '));
    expect(() => verify('tampered.json')).toThrow();
  });

  it("uses the shop's icon and logo when given", () => {
    const icon = Buffer.from('icon-bytes');
    const logo = Buffer.from('logo-bytes');
    const files = readZip(build({ settings: { ...settings, icon_png: icon.toString('base64'), logo_png: logo.toString('base64') } }));
    expect(files.get('icon.png')).toEqual(icon);
    expect(files.get('logo.png')).toEqual(logo);
  });

  it('refuses a key that cannot be read, with a sentence naming the certificates and key', () => {
    const broken = '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n';
    expect(() => build({ settings: { ...settings, signer_key: broken } })).toThrow(
      new PassBuildError('The pass could not be signed: check the certificates and the key of the wallet channel.'),
    );
  });
});
