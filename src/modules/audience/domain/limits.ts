/**
 * Bounds of audience imports (docs/audience.md). interface.md leaves the size of one
 * import "not shown"; ours is documented and answered with 413 beyond it.
 */

/** Records one POST /import/audience may carry. */
export const MAX_RECORDS_PER_REQUEST = 100_000;

/**
 * Records per stored chunk, and so per processing transaction: large enough that the
 * per-transaction cost vanishes, small enough that a chunk's statements stay well under
 * the bound-parameter limits and a retried chunk redoes little.
 */
export const CHUNK_RECORDS = 2500;

/**
 * The body limit of POST /import/audience (the rest of the public API keeps
 * PATRON_BODY_LIMIT): 100,000 records of about a kilobyte each, with room to spare.
 */
export const AUDIENCE_BODY_LIMIT = 128 * 1024 * 1024;
