import type { ServiceDefinition } from '@qm/platform';
import { serviceDefaults } from '@qm/roster';
import { createActivityLists } from './app/lists';
import { createRecorder } from './app/recorder';
import { EMAIL_TTL_MS, emailsOf } from './app/users';
import { followUserChanges, identityDirectory } from '@qm/contracts/grpc';
import { activityEnv } from './config';
import { activityConsumers } from './events/consumers';
import { addActivityService } from './server';
import { createActivityStore } from './store/activities';
import { createActivitySearch } from './store/search';

export { activityEnv } from './config';

/** The activity service (port and database: @qm/roster): docs/product.md §3 activity records, §5 admin filters. */
export const activityService: ServiceDefinition<typeof activityEnv> = {
  ...serviceDefaults('activity'),
  env: activityEnv,
  async setup({ config, log, conn, engine, bus, grpc }) {
    const store = createActivityStore(conn);
    const search = await createActivitySearch(engine);
    const directory = identityDirectory({
      address: config.IDENTITY_GRPC_ADDR,
      service: 'activity',
      token: config.INTERNAL_TOKEN,
      deadlineMs: config.ACTIVITY_CALL_DEADLINE_MS,
      ttlMs: EMAIL_TTL_MS,
    });
    const stopFollowingUsers = followUserChanges(bus, directory);
    const users = emailsOf(directory);
    addActivityService(grpc, { lists: createActivityLists({ store, search }) });
    return {
      ...activityConsumers({
        durable: config.ACTIVITY_DURABLE,
        gatherMs: config.ACTIVITY_GATHER_MS,
        record: createRecorder({ store, users, log }),
      }),
      stop: async () => {
        stopFollowingUsers();
        users.close();
        await search.close();
      },
    };
  },
};
