import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { ThumbnailRef } from './domain/links.js';
import { thumbnailFileName } from './domain/links.js';
import type { ThumbnailSize } from './images.types.js';

/**
 * Thumbnail files under `<dataDir>/images/<shop_id>/<hash[0..2]>/<hash>/<size>.jpg`.
 * The two-character level keeps a shop with 100,000 pictures from putting them all in
 * one directory. Each file is written to a temporary name, flushed and renamed, so a
 * crash leaves either the whole file or none; a picture's row says `done` only after
 * all its files are in place.
 */
export class ImageStore {
  constructor(private readonly root: string) {}

  static inDataDir(dataDir: string): ImageStore {
    return new ImageStore(path.join(dataDir, 'images'));
  }

  private dirOf(shopId: string, hash: string): string {
    return path.join(this.root, shopId, hash.slice(0, 2), hash);
  }

  async write(shopId: string, hash: string, images: ReadonlyMap<ThumbnailSize, Buffer>): Promise<void> {
    const dir = this.dirOf(shopId, hash);
    await fs.promises.mkdir(dir, { recursive: true });
    for (const [size, bytes] of images) {
      const target = path.join(dir, thumbnailFileName(size));
      const temp = `${target}.${crypto.randomBytes(6).toString('hex')}.tmp`;
      const handle = await fs.promises.open(temp, 'w');
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
      try {
        await fs.promises.rename(temp, target);
      } catch (error) {
        await fs.promises.rm(temp, { force: true });
        throw error;
      }
    }
  }

  /** Removes every thumbnail of a picture (nothing when there are none). */
  async remove(shopId: string, hash: string): Promise<void> {
    await fs.promises.rm(this.dirOf(shopId, hash), { recursive: true, force: true });
  }

  /** The file of a thumbnail, or undefined when it does not exist. */
  async stat(ref: ThumbnailRef): Promise<StoredThumbnail | undefined> {
    const file = path.join(this.dirOf(ref.shopId, ref.hash), thumbnailFileName(ref.size));
    try {
      const stats = await fs.promises.stat(file);
      if (!stats.isFile()) return undefined;
      return {
        bytes: stats.size,
        modifiedAtMs: Math.floor(stats.mtimeMs),
        open: () => fs.createReadStream(file),
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }
}

export interface StoredThumbnail {
  readonly bytes: number;
  readonly modifiedAtMs: number;
  open(): Readable;
}
