import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Seals provider secrets at rest with AES-256-GCM (docs/messaging.md, "Secrets and the secret key").
 * A sealed value is `sealed:v1:<iv>.<tag>.<ciphertext>` (base64url): a fresh 96-bit IV per
 * value, and the GCM tag, so that a changed byte is refused rather than decrypted to
 * garbage. The key is PATRON_SECRET_KEY (config.ts); without it, a random key is kept in
 * `<dataDir>/secret.key`, created on first need with mode 0600. Losing that file loses
 * the stored secrets (they must be entered again), which is why the docs say to back it up
 * or to set PATRON_SECRET_KEY.
 */

const PREFIX = 'sealed:v1:';
const KEY_FILE = 'secret.key';

export class SecretBox {
  private key: Promise<Buffer> | undefined;

  constructor(private readonly source: { readonly secretKey: string | undefined; readonly dataDir: string }) {}

  /** Where the key is kept without PATRON_SECRET_KEY. */
  static keyFile(dataDir: string): string {
    return path.join(dataDir, KEY_FILE);
  }

  static isSealed(value: unknown): value is string {
    return typeof value === 'string' && value.startsWith(PREFIX);
  }

  async seal(plain: string): Promise<string> {
    const key = await this.loadKey();
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return `${PREFIX}${iv.toString('base64url')}.${tag.toString('base64url')}.${body.toString('base64url')}`;
  }

  async open(sealed: string): Promise<string> {
    if (!SecretBox.isSealed(sealed)) throw new Error('The value is not a sealed secret');
    const [iv, tag, body] = sealed.slice(PREFIX.length).split('.');
    if (iv === undefined || tag === undefined || body === undefined) throw new Error('A sealed secret is malformed');
    const key = await this.loadKey();
    const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    try {
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      // Wrong key (PATRON_SECRET_KEY changed, key file replaced) or altered ciphertext.
      throw new Error('A stored secret cannot be decrypted with the current secret key');
    }
  }

  /**
   * A key for another purpose (signing tracking links, webhook secrets), derived from the
   * secret key with HKDF-SHA256 under its own label, so the encryption key itself never
   * signs anything and one purpose's key says nothing about another's.
   */
  async deriveKey(label: string): Promise<Buffer> {
    const key = await this.loadKey();
    return Buffer.from(crypto.hkdfSync('sha256', key, Buffer.alloc(0), `patron:${label}`, 32));
  }

  /**
   * A check of the key that says nothing about it: HMAC-SHA256 of a fixed label under the
   * key (hex). Equal keys give equal checks; processes on one database compare theirs at
   * start (modules/system/secret-key-check.ts).
   */
  async keyCheck(): Promise<string> {
    const key = await this.loadKey();
    return crypto.createHmac('sha256', key).update('patron:secret-key-check:v1').digest('hex');
  }

  private loadKey(): Promise<Buffer> {
    this.key ??= this.readOrCreateKey().catch((error: unknown) => {
      this.key = undefined;
      throw error;
    });
    return this.key;
  }

  private async readOrCreateKey(): Promise<Buffer> {
    if (this.source.secretKey !== undefined) return Buffer.from(this.source.secretKey, 'hex');
    const file = SecretBox.keyFile(this.source.dataDir);
    await fs.mkdir(this.source.dataDir, { recursive: true });
    // Written whole to a temporary file, then linked into place: link() refuses an
    // existing name atomically, so two processes starting at once keep one key and
    // neither reads a half-written file.
    const temporary = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
    await fs.writeFile(temporary, `${crypto.randomBytes(32).toString('hex')}\n`, { mode: 0o600 });
    try {
      await fs.link(temporary, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      await fs.rm(temporary, { force: true });
    }
    const text = (await fs.readFile(file, 'utf8')).trim();
    if (!/^[0-9a-f]{64}$/.test(text)) throw new Error(`The key file ${file} does not hold 64 hexadecimal characters`);
    return Buffer.from(text, 'hex');
  }
}
