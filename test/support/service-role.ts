import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** The grants docs/production.md gives the service's role on the event tables, run as their owner. */
export const SERVICE_ROLE_GRANTS = (role: string) => [
  `grant usage, create on schema public to ${role}`,
  `grant select, insert on es_events, es_checkpoints to ${role}`,
  `grant select on es_mac_marker to ${role}`,
  `grant select, insert, update on es_streams to ${role}`,
  `grant usage on sequence es_events_position_seq to ${role}`,
  `grant usage, update on sequence es_checkpoints_id_seq to ${role}`,
];

export interface ServiceRole {
  readonly name: string;
  /** `databaseUrl` with the role as its user. */
  readonly url: string;
  /** Revokes its grants and drops it (while its database exists). */
  readonly drop: () => Promise<void>;
}

/** A login role on the database of `databaseUrl` (whose event tables exist), granted exactly SERVICE_ROLE_GRANTS. */
export async function createServiceRole(databaseUrl: string): Promise<ServiceRole> {
  const name = `cms_service_${randomBytes(4).toString('hex')}`;
  const owner = new Client({ connectionString: databaseUrl });
  await owner.connect();
  try {
    await owner.query(`create role ${name} login`);
    for (const grant of SERVICE_ROLE_GRANTS(name)) await owner.query(grant);
  } finally {
    await owner.end();
  }
  const url = new URL(databaseUrl);
  url.username = name;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      const admin = new Client({ connectionString: databaseUrl });
      await admin.connect();
      try {
        await admin.query(`drop owned by ${name}`);
        await admin.query(`drop role if exists ${name}`);
      } finally {
        await admin.end();
      }
    },
  };
}
