import net, { type AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import smpp from 'smpp';
import { SmppProvider, type SmppSettings } from '../../../src/modules/messaging/providers/smpp.provider.js';
import { startSmppPeer, type SmppPeer } from './smpp-peer.js';

let peer: SmppPeer;
let provider: SmppProvider;
const context = { allowPrivate: true } as const;

function settings(overrides: Partial<SmppSettings> = {}): SmppSettings {
  return { host: '127.0.0.1', port: peer.port, system_id: 'patron', password: 'secret1', source_addr: 'Patron', ...overrides };
}

beforeAll(async () => {
  peer = await startSmppPeer();
});

afterAll(async () => {
  await peer.close();
});

afterEach(async () => {
  await provider.close();
  peer.answer = (index) => ({ status: 0, messageId: `msg-${index + 1}` });
});

function fresh(options: ConstructorParameters<typeof SmppProvider>[0] = {}): SmppProvider {
  provider = new SmppProvider({ timeoutMs: 1500, ...options });
  return provider;
}

describe('SmppProvider', () => {
  it('binds as a transmitter with the settings and submits a GSM text as unpacked septets', async () => {
    fresh();
    const binds = peer.binds.length;
    const before = peer.submits.length;
    const result = await provider.send(settings({ system_type: 'patron' }), { to: '79001234567', body: 'Hi @_{x} €5' }, context);
    expect(result).toEqual({ ok: true, providerMessageId: expect.stringMatching(/^msg-\d+$/) });
    expect(peer.binds.slice(binds)).toEqual([
      { command: 'bind_transmitter', system_id: 'patron', password: 'secret1', system_type: 'patron' },
    ]);
    const submit = peer.submits[before]!;
    expect(submit).toMatchObject({
      serviceType: '',
      sourceTon: 5,
      sourceNpi: 0,
      sourceAddr: 'Patron',
      destTon: 1,
      destNpi: 1,
      destinationAddr: '79001234567',
      esmClass: 0,
      dataCoding: 0x00,
    });
    expect([...submit.shortMessage]).toEqual([0x48, 0x69, 0x20, 0x00, 0x11, 0x1b, 0x28, 0x78, 0x1b, 0x29, 0x20, 0x1b, 0x65, 0x35]);
  });

  it('sends Cyrillic as UCS2 and a numeric sender as an international number', async () => {
    fresh();
    const before = peer.submits.length;
    const result = await provider.send(settings({ source_addr: '79990001122' }), { to: '+79001234567', body: 'Привет' }, context);
    expect(result.ok).toBe(true);
    const submit = peer.submits[before]!;
    expect(submit).toMatchObject({
      sourceTon: 1,
      sourceNpi: 1,
      sourceAddr: '79990001122',
      destinationAddr: '79001234567',
      dataCoding: 0x08,
    });
    expect(submit.shortMessage.equals(Buffer.from('Привет', 'utf16le').swap16())).toBe(true);
  });

  it('splits a 300-character text into two parts with one concatenation reference', async () => {
    fresh();
    const before = peer.submits.length;
    const text = Array.from({ length: 300 }, (_, i) => String.fromCharCode(97 + (i % 26))).join('');
    const result = await provider.send(settings(), { to: '79001234567', body: text }, context);
    const parts = peer.submits.slice(before);
    expect(parts).toHaveLength(2);
    expect(result).toEqual({ ok: true, providerMessageId: `msg-${peer.submits.length - 1},msg-${peer.submits.length}` });
    const reference = parts[0]!.shortMessage[3]!;
    parts.forEach((part, index) => {
      expect(part.esmClass).toBe(0x40);
      expect(part.dataCoding).toBe(0x00);
      expect([...part.shortMessage.subarray(0, 6)]).toEqual([0x05, 0x00, 0x03, reference, 2, index + 1]);
    });
    expect(parts[0]!.shortMessage.length - 6).toBe(153);
    expect(parts[1]!.shortMessage.length - 6).toBe(147);
    expect(Buffer.concat(parts.map((part) => part.shortMessage.subarray(6))).toString('latin1')).toBe(text);
  });

  it('splits a long UCS2 text into parts of 67 characters', async () => {
    fresh();
    const before = peer.submits.length;
    const text = 'Ж'.repeat(100);
    await provider.send(settings(), { to: '79001234567', body: text }, context);
    const parts = peer.submits.slice(before);
    expect(parts.map((part) => [part.dataCoding, part.shortMessage.length - 6, part.shortMessage[4], part.shortMessage[5]])).toEqual([
      [0x08, 134, 2, 1],
      [0x08, 66, 2, 2],
    ]);
  });

  it('reuses one bound session across sends and binds again after the SMSC closes it', async () => {
    fresh();
    const binds = peer.binds.length;
    const sessions = peer.sessions.length;
    for (let i = 0; i < 3; i++) expect((await provider.send(settings(), { to: '79001234567', body: `n${i}` }, context)).ok).toBe(true);
    expect(peer.binds.length - binds).toBe(1);
    expect(peer.sessions.length - sessions).toBe(1);

    peer.sessions.at(-1)!.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const again = await Promise.all([1, 2, 3].map((i) => provider.send(settings(), { to: '79001234567', body: `again ${i}` }, context)));
    expect(again.every((result) => result.ok)).toBe(true);
    expect(peer.binds.length - binds).toBe(2);
  });

  it('shares one bind among concurrent first sends', async () => {
    fresh();
    const binds = peer.binds.length;
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => provider.send(settings(), { to: '79001234567', body: `c${i}` }, context)),
    );
    expect(results.every((result) => result.ok)).toBe(true);
    expect(peer.binds.length - binds).toBe(1);
  });

  it('unbinds on close()', async () => {
    fresh();
    await provider.send(settings(), { to: '79001234567', body: 'x' }, context);
    const unbinds = peer.unbinds.length;
    await provider.close();
    expect(peer.unbinds.length - unbinds).toBe(1);
  });

  it('unbinds a session that stayed unused for idleMs and binds afresh for the next send', async () => {
    fresh({ idleMs: 100 });
    const binds = peer.binds.length;
    const unbinds = peer.unbinds.length;
    await provider.send(settings(), { to: '79001234567', body: 'x' }, context);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(peer.unbinds.length - unbinds).toBe(1);
    expect((await provider.send(settings(), { to: '79001234567', body: 'y' }, context)).ok).toBe(true);
    expect(peer.binds.length - binds).toBe(2);
  });

  it('maps throttling and a full queue to temporary, a bad destination to dead_address, other statuses to permanent', async () => {
    fresh();
    const cases: [number, string, string][] = [
      [smpp.errors.ESME_RTHROTTLED!, 'temporary', 'The SMSC is busy (ESME_RTHROTTLED).'],
      [smpp.errors.ESME_RMSGQFUL!, 'temporary', 'The SMSC is busy (ESME_RMSGQFUL).'],
      [smpp.errors.ESME_RINVDSTADR!, 'dead_address', 'The SMSC refused the destination number (ESME_RINVDSTADR).'],
      [smpp.errors.ESME_RSYSERR!, 'permanent', 'The SMSC refused the message (ESME_RSYSERR).'],
      [0x400, 'permanent', 'The SMSC refused the message (0x00000400).'],
    ];
    for (const [status, kind, message] of cases) {
      peer.answer = () => ({ status });
      expect(await provider.send(settings(), { to: '79001234567', body: 'x' }, context)).toEqual({ ok: false, kind, message });
    }
  });

  it('reports a refused bind as permanent, naming the wrong password', async () => {
    fresh();
    const result = await provider.send(settings({ password: 'wrong' }), { to: '79001234567', body: 'x' }, context);
    expect(result).toEqual({ ok: false, kind: 'permanent', message: 'The SMSC refused the bind: the password is wrong (ESME_RINVPASWD).' });
    expect(peer.binds.at(-1)).toMatchObject({ system_id: 'patron', password: 'wrong' });
  });

  it('reports a refused connection as temporary', async () => {
    fresh();
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const result = await provider.send(settings({ port }), { to: '79001234567', body: 'x' }, context);
    expect(result).toEqual({ ok: false, kind: 'temporary', message: 'The SMSC refused the connection.' });
  });

  it('gives up on an SMSC that does not answer, as temporary, within the deadline, and binds afresh for the next send', async () => {
    fresh({ timeoutMs: 300 });
    peer.answer = () => 'hang';
    const started = Date.now();
    const result = await provider.send(settings(), { to: '79001234567', body: 'x' }, context);
    expect(result).toEqual({ ok: false, kind: 'temporary', message: 'The SMSC did not answer within 300 ms.' });
    expect(Date.now() - started).toBeLessThan(1500);

    peer.answer = () => ({ status: 0, messageId: 'after' });
    const binds = peer.binds.length;
    expect(await provider.send(settings(), { to: '79001234567', body: 'y' }, context)).toEqual({ ok: true, providerMessageId: 'after' });
    expect(peer.binds.length - binds).toBe(1);
  });

  it('refuses a private SMSC address unless the guard allows it', async () => {
    fresh();
    const sessions = peer.sessions.length;
    const result = await provider.send(settings(), { to: '79001234567', body: 'x' }, { allowPrivate: false });
    expect(result).toEqual({
      ok: false,
      kind: 'permanent',
      message: 'The SMSC host is a local or private network address, which is not allowed.',
    });
    expect(peer.sessions.length).toBe(sessions);
    expect((await provider.send(settings(), { to: '79001234567', body: 'x' }, { allowPrivate: ['127.0.0.1'] })).ok).toBe(true);
  });

  it('refuses a destination that is not a phone number without connecting', async () => {
    fresh();
    const sessions = peer.sessions.length;
    const result = await provider.send(settings(), { to: 'not-a-phone', body: 'x' }, context);
    expect(result).toMatchObject({ ok: false, kind: 'dead_address' });
    expect(peer.sessions.length).toBe(sessions);
  });
});
