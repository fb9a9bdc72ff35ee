import { uniqueName } from './infra';

/**
 * Jest runs many test files in one worker process, whose default events prefix (`test-<pid>`) would
 * carry earlier files' events into a later file's fresh consumers: identity ids restart at 1 in each
 * file's database, so an earlier file's `identity.user.deleted` for user 3 would close this file's
 * user 3's wallet. Each file gets streams of its own (a test may still choose its own prefix).
 */
process.env.EVENTS_PREFIX = uniqueName('test', '-');
