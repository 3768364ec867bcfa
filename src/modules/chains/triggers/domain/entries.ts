/**
 * Segment entry (admin-api.md "Chains and bulk mailings": `{"segment_entry":
 * {"segment_id": N}}`). Pure: which chains a segment's entries start, and the keys.
 *
 * An entry is a profile becoming a member of a segment at one instant: the run key names
 * the segment, that instant and the profile, so an entry handed over twice starts one run, and a
 * profile that leaves and enters again is a new entry (the chain's re-entry rule decides).
 */
import type { ActiveChain } from '../../chain-starter.js';

/** Profiles one `chains.segment_entries` job carries (an import batch's new members are split). */
export const MAX_ENTRIES_PER_JOB = 1000;

export function chainsOfSegment(chains: readonly ActiveChain[], segmentId: number): ActiveChain[] {
  return chains.filter((chain) => chain.trigger.kind === 'segment_entry' && chain.trigger.segmentId === segmentId);
}

/** The profile is in the key because one addition enters many profiles (keys are unique per chain). */
export function entryFiringKey(segmentId: number, at: number, profileId: number): string {
  return `segment_entry/${segmentId}/${at}/${profileId}`;
}

/** Splits ids into pieces of at most `size`, in order. */
export function slicesOf<T>(items: readonly T[], size: number): T[][] {
  const slices: T[][] = [];
  for (let i = 0; i < items.length; i += size) slices.push(items.slice(i, i + size));
  return slices;
}
