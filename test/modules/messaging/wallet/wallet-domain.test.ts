import { describe, expect, it } from 'vitest';
import { buildPassJson, toRgb } from '../../../../src/modules/messaging/wallet/domain/pass-content.js';
import { rgbOf, squarePng } from '../../../../src/modules/messaging/wallet/domain/square-png.js';
import { httpDate, notModifiedSince, parseUpdateTag } from '../../../../src/modules/messaging/wallet/domain/web-service.js';

describe('the PassKit web service rules', () => {
  it('reads the update tag it gave, and ignores one it did not', () => {
    expect(parseUpdateTag('1768478400000')).toBe(1_768_478_400_000);
    expect(parseUpdateTag(undefined)).toBeUndefined();
    expect(parseUpdateTag('')).toBeUndefined();
    expect(parseUpdateTag('yesterday')).toBeUndefined();
    expect(parseUpdateTag('1'.repeat(17))).toBeUndefined();
  });

  it('answers not modified only for a pass no newer than If-Modified-Since, in whole seconds', () => {
    const changed = Date.UTC(2026, 0, 15, 12, 0, 5);
    expect(notModifiedSince(httpDate(changed), changed)).toBe(true);
    expect(notModifiedSince(httpDate(changed), changed + 1000)).toBe(false);
    expect(notModifiedSince(httpDate(changed - 1000), changed)).toBe(false);
    expect(notModifiedSince('not a date', changed)).toBe(false);
    expect(notModifiedSince(undefined, changed)).toBe(false);
    expect(httpDate(changed)).toBe('Thu, 15 Jan 2026 12:00:05 GMT');
  });
});

describe('the pass content', () => {
  const settings = {
    pass_type_identifier: 'pass.org.patron.test',
    team_identifier: 'ABCDE12345',
    organization_name: 'Corner Shop',
    description: 'Corner Shop card',
    signer_certificate: '',
    signer_key: '',
    wwdr_certificate: '',
    label_color: '#0A0B0C',
  };

  it('shows the balance in currency units and the message with a change message', () => {
    const json = buildPassJson({
      serialNumber: 's',
      authenticationToken: 't'.repeat(16),
      webServiceUrl: 'https://x.example/wallet/a',
      settings,
      card: { memberIdentifier: 'L-1', balance: 5 },
      message: null,
    });
    expect(json.description).toBe('Corner Shop card');
    expect(json.labelColor).toBe('rgb(10, 11, 12)');
    expect(json.backgroundColor).toBeUndefined();
    expect(json.storeCard).toEqual({
      primaryFields: [{ key: 'balance', label: 'Balance', value: 0.05, changeMessage: 'Balance: %@' }],
      secondaryFields: [{ key: 'member', label: 'Member', value: 'L-1' }],
      backFields: [{ key: 'message', label: 'Message', value: '', changeMessage: '%@' }],
    });
  });

  it('converts colours to rgb() triples', () => {
    expect(toRgb('#000000')).toBe('rgb(0, 0, 0)');
    expect(toRgb('#fFfF01')).toBe('rgb(255, 255, 1)');
    expect(rgbOf('#010203')).toEqual([1, 2, 3]);
    expect(rgbOf(undefined)).toEqual([96, 96, 96]);
  });

  it('draws a square PNG whose header and checksums are right', () => {
    const png = squarePng(3, [255, 0, 0]);
    expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR');
    expect(png.readUInt32BE(16)).toBe(3);
    expect(png.readUInt32BE(20)).toBe(3);
    expect(png.subarray(-8, -4).toString('ascii')).toBe('IEND');
    // IEND's CRC is a constant of the format.
    expect(png.readUInt32BE(png.length - 4)).toBe(0xae426082);
  });
});
