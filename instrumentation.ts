export async function register() {
  // Only the Node.js server opens the database; never the edge runtime or the build.
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  const { startStudio } = await import("./server/startup");
  await startStudio();
}
