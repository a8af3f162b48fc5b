import { describeScaleOut } from './scale-out.suite';
import { standby } from '../support/standby';
import { eventually } from '../support/waiting';

// The instances read content from the streaming standby (scripts/standby.sh) while the holder is killed.
describeScaleOut({
  title: ' with its streaming standby as read replica',
  environment: async (databaseUrl) => {
    const replicaUrl = standby().urlOf(databaseUrl);
    await eventually(() => standby().reachable(replicaUrl), 15_000);
    return { READ_REPLICA_URLS: replicaUrl };
  },
});
