// Run after `next build`: prepares the migrated PGlite template that makes a first start fast (see db/pglite-template.ts).
import { ensurePgliteTemplate } from "@/db/pglite-template";

const started = performance.now();
const file = await ensurePgliteTemplate();
console.log(`PGlite template ready: ${file} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
