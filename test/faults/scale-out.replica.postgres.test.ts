import { describeScaleOut } from './scale-out.suite';
import { standby } from '../support/standby';
import { eventually } from '../support/waiting';

// Issue 30's run: the instances read content from the streaming standby (scripts/standby.sh), 1,000 pairs, the holder killed.
describeScaleOut({
  title: ' with its streaming standby as read replica',
  pairs: 1000,
  environment: async (databaseUrl) => {
    const replicaUrl = standby().urlOf(databaseUrl);
    await eventually(() => standby().reachable(replicaUrl), 15_000);
    return { READ_REPLICA_URLS: replicaUrl };
  },
});
