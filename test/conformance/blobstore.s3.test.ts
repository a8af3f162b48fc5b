import { S3BlobStore } from '../../infra/blobs/s3';
import { startS3Server } from '../support/s3-server';
import { describeBlobStoreConformance } from './blobstore.suite';

/** The server named by S3_ENDPOINT (MinIO in docker-compose.yml), else a local s3rver, so this suite always runs. */
async function openServer() {
  const endpoint = process.env.S3_ENDPOINT;
  if (!endpoint) return startS3Server();
  return {
    endpoint,
    accessKey: process.env.S3_ACCESS_KEY ?? '',
    secretKey: process.env.S3_SECRET_KEY ?? '',
    close: async () => {},
  };
}

describeBlobStoreConformance(process.env.S3_ENDPOINT ? 'S3 (S3_ENDPOINT)' : 'S3 (local s3rver)', async () => {
  const server = await openServer();
  // The suite keeps its keys under a prefix of its own and deletes it, so runs can share the bucket.
  const store = await S3BlobStore.connect({ ...server, endPoint: server.endpoint, bucket: 'cms-blobstore-conformance' });
  return {
    store,
    close: async () => {
      await store.close();
      await server.close();
    },
  };
});
