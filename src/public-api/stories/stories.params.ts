import type { PublicInput } from '../../http/input.js';
import { readInteger, readString, validationError } from '../../http/readers.js';
import { isValidDeviceId } from '../../modules/identity/index.js';
import type { StoryEvent } from '../../modules/stories/stories.service.js';

/**
 * POST /track/stories (contract-notes "Beyond interface.md") as the three SDKs send it:
 * the React Native SDK story and slide ids as JSON numbers, the Android SDK the story id a
 * number and the slide id a string, the iOS SDK both strings; so an id is a whole number
 * from 1, as a number or as its decimal text. Identity keys (`seance`, `sid`, `segment`,
 * `stream`) are accepted and not needed.
 */
export function readStoryEvent(input: PublicInput): StoryEvent {
  const event = readString(input, 'event');
  if (event !== 'view' && event !== 'click') throw validationError('event', 'must be `view` or `click`');
  const code = readString(input, 'code', { nonEmpty: true, maxLength: 64 });
  const storyId = readInteger(input, 'story_id', { min: 1 });
  const slideId = readInteger(input, 'slide_id', { min: 1 });
  const did = readString(input, 'did', { nonEmpty: true, maxLength: 255 });
  if (!isValidDeviceId(did)) throw validationError('did', 'must be the device id /init answered');
  return { event, code, storyId, slideId, did };
}

/** GET /stories/{code}: the device whose views answer `viewed` and `start_position`; one that is not well-formed counts as none. */
export function readStoriesDevice(input: PublicInput): string | undefined {
  const did = input.did;
  return typeof did === 'string' && isValidDeviceId(did) ? did : undefined;
}
