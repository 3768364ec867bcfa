import type { CustomPropertyType } from './domain/custom-properties.js';
import type { ImportLog, ImportStatus } from './domain/import-log.js';
import type { AudienceFields, PushPlatform } from './domain/record.js';

/** What the audience module answers; scopes map these to their contracts. */

export interface Segment {
  readonly id: number;
  readonly name: string;
  /** Members (live profiles). */
  readonly size: number;
  readonly createdAt: number;
}

export interface CustomProperty {
  readonly code: string;
  readonly type: CustomPropertyType;
  readonly name: string | null;
  readonly createdAt: number;
}

/** One entry of the import log (admin-api.md, "Import logs"). */
export interface AudienceImport {
  readonly id: number;
  readonly kind: 'audience';
  readonly source: 'api' | 'cli';
  readonly segmentId: number | null;
  readonly status: Exclude<ImportStatus, 'receiving'>;
  readonly received: number;
  /** Records read so far, imported or skipped: where a stopped import stands. */
  readonly processed: number;
  readonly imported: number;
  readonly skipped: number;
  /** Profiles the import created; the other imported records went to existing profiles. */
  readonly profilesCreated: number;
  readonly log: ImportLog;
  readonly createdAt: number;
  readonly startedAt: number | null;
  readonly finishedAt: number | null;
}

/** What an import stored about a profile (the attributes and the push tokens). */
export interface CustomerAttributes {
  readonly fields: AudienceFields;
  readonly pushTokens: readonly { readonly token: string; readonly platform: PushPlatform }[];
}
