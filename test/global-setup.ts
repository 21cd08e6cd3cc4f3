import { ensurePgliteTemplate } from "@/db/pglite-template";

// Every integration test opens fresh PGlite directories: prepare the migrated template once.
export default async function setup() {
  await ensurePgliteTemplate();
}
