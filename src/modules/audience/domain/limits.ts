/**
 * Bounds of audience imports (docs/audience.md). interface.md leaves the size of one
 * import "not shown"; ours is documented and answered with 413 beyond it.
 */

/** Records one POST /import/audience may carry. */
export const MAX_RECORDS_PER_REQUEST = 100_000;

/**
 * A stored chunk holds at most this many records and, unless one record alone is
 * larger, this much text. Small enough that a chunk's text stays below V8's large-object
 * size, so the strings of a running import die young instead of piling up in the old
 * generation until a full collection (the bench's memory target).
 */
export const CHUNK_RECORDS = 500;
export const CHUNK_BYTES = 60 * 1024;

/**
 * Records per processing transaction (one or more stored chunks). Larger batches save
 * little once the statements are set-wise, and a batch's objects (parsed records, the
 * resolution plan, statement parameters) then outlive two young-generation collections
 * and are promoted, growing the old generation: 500 keeps the import's memory well under
 * its bound at about the speed of 2,500 (docs/audience.md, "Performance").
 */
export const BATCH_RECORDS = 500;
/** Stored chunks one transaction reads at most. */
export const BATCH_CHUNKS = 64;

/**
 * The body limit of POST /import/audience (the rest of the public API keeps
 * PATRON_BODY_LIMIT): 100,000 records of about a kilobyte each, with room to spare.
 */
export const AUDIENCE_BODY_LIMIT = 128 * 1024 * 1024;
