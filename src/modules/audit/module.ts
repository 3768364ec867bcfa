import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { DbHandle } from '../../db/create-db.js';
import type { JobHandlers } from '../../jobs/job-handlers.js';
import type { JobQueue } from '../../jobs/queue.js';
import { AuditService } from './audit.service.js';

export interface AuditServices {
  /** The audit log: every admin change and sign-in, who made it and the state before and after (docs/audit-log.md). */
  readonly audit: AuditService;
}

export interface AuditModule {
  readonly services: AuditServices;
  readonly jobs: Pick<JobHandlers, 'audit.prune'>;
}

export function createAuditModule(deps: {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly jobs: JobQueue;
  readonly config: Config;
}): AuditModule {
  const audit = new AuditService({ db: deps.db, clock: deps.clock, jobs: deps.jobs, settings: deps.config.auditLog });
  return {
    services: { audit },
    jobs: {
      // Entries past PATRON_AUDIT_RETENTION_DAYS, deleted in batches; each run queues the next day's.
      // Deleting is idempotent, so a redelivered run only finds less to delete.
      'audit.prune': {
        handler: async (payload, ctx) => {
          await audit.runPrune(payload, { signal: ctx.signal });
        },
      },
    },
  };
}
