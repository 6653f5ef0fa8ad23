import { ensurePgliteTemplateFolder, ensurePostgresTemplate } from "./template.ts";

/** Builds the migrated template once per run, before any test file starts. */
export default async function setup() {
  if (process.env.TEST_DATABASE_URL) await ensurePostgresTemplate(process.env.TEST_DATABASE_URL);
  else await ensurePgliteTemplateFolder();
}
