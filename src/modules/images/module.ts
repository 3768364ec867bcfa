import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { DbHandle } from '../../db/create-db.js';
import type { JobHandlers } from '../../jobs/job-handlers.js';
import type { JobQueue } from '../../jobs/queue.js';
import { ImagesService } from './images.service.js';

export interface ImagesServices {
  /** Product pictures: downloaded after each import, thumbnails served under /images/. */
  readonly images: ImagesService;
}

export interface ImagesModule {
  readonly services: ImagesServices;
  readonly jobs: Pick<JobHandlers, 'images.download'>;
  /** The catalog's landed listener: a landing's pictures are downloaded. */
  readonly catalogListener: ReturnType<ImagesService['landedListener']>;
}

export function createImagesModule(deps: {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly config: Config;
  readonly jobs: JobQueue;
}): ImagesModule {
  const images = new ImagesService(deps);
  return {
    services: { images },
    jobs: {
      // Product pictures after an import landed; resumable, so a retry skips finished pictures.
      'images.download': {
        handler: async (payload, ctx) => {
          await images.downloadForShop(payload, ctx.signal);
        },
      },
    },
    catalogListener: images.landedListener(),
  };
}
