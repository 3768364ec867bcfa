import { createDecipheriv, createECDH, createHmac, randomBytes, type ECDH } from 'node:crypto';
import { importJWK, jwtVerify, type JWTPayload } from 'jose';

/**
 * The browser's side of web push, for a local push-service peer: a subscription's keys,
 * the RFC 8291 decryption of an aes128gcm body with them, and the RFC 8292 check of the
 * VAPID Authorization header. Written from the RFCs with node:crypto, independently of
 * the web-push package the provider uses, so that a test proves the two agree.
 */

export interface BrowserSubscriptionKeys {
  readonly ecdh: ECDH;
  /** base64url of the uncompressed public key, as PushSubscription.getKey('p256dh'). */
  readonly p256dh: string;
  /** base64url of the 16-byte auth secret. */
  readonly auth: string;
}

export function browserSubscriptionKeys(): BrowserSubscriptionKeys {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { ecdh, p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
}

function hmac(key: Buffer, ...parts: Buffer[]): Buffer {
  const mac = createHmac('sha256', key);
  for (const part of parts) mac.update(part);
  return mac.digest();
}

/** RFC 8291 section 3.4 and RFC 8188: the plaintext a browser recovers from one aes128gcm record. */
export function decryptAes128gcm(body: Buffer, keys: BrowserSubscriptionKeys): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body.readUInt8(20);
  const serverPublicKey = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  if (idLength !== 65) throw new Error(`keyid of ${idLength} bytes, expected the 65-byte server key`);
  if (record.length > recordSize) throw new Error('more than one record');

  const uaPublic = keys.ecdh.getPublicKey();
  const ecdhSecret = keys.ecdh.computeSecret(serverPublicKey);
  const authSecret = Buffer.from(keys.auth, 'base64url');
  // HKDF-Extract(auth_secret, ecdh_secret), then Expand with "WebPush: info" || 0 || ua_public || as_public.
  const prkKey = hmac(authSecret, ecdhSecret);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, serverPublicKey]);
  const ikm = hmac(prkKey, keyInfo, Buffer.from([1]));
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0'), Buffer.from([1])).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0'), Buffer.from([1])).subarray(0, 12);

  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error('no last-record delimiter');
  return padded.subarray(0, end).toString('utf8');
}

/**
 * RFC 8292: `Authorization: vapid t=<JWT>, k=<public key>`. Verifies the ES256 signature
 * with k, the audience (the endpoint's origin) and the expiry (at most 24 hours ahead),
 * and returns the key and the claims.
 */
export async function verifyVapid(authorization: string | undefined, audience: string): Promise<{ k: string; claims: JWTPayload }> {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '');
  if (!match) throw new Error(`not a VAPID Authorization header: ${authorization}`);
  const [, token, k] = match as unknown as [string, string, string];
  const raw = Buffer.from(k, 'base64url');
  if (raw.length !== 65 || raw[0] !== 4) throw new Error('k is not an uncompressed P-256 key');
  const key = await importJWK(
    { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33).toString('base64url') },
    'ES256',
  );
  const { payload } = await jwtVerify(token, key, { algorithms: ['ES256'], audience, requiredClaims: ['exp', 'sub'] });
  if (Number(payload.exp) > Date.now() / 1000 + 24 * 3600) throw new Error('exp more than 24 hours ahead');
  return { k, claims: payload };
}
