import { createPgliteTemplate } from './pglite-template';

export default async function globalSetup(): Promise<void> {
  await createPgliteTemplate();
}
