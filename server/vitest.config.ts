import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    // `*.pg.test.ts` are about PostgreSQL itself (its connections going away): they exist only on
    // the PostgreSQL run, rather than being skipped on PGlite.
    exclude: process.env.TEST_DATABASE_URL
      ? configDefaults.exclude
      : [...configDefaults.exclude, "src/**/*.pg.test.ts"],
    globalSetup: ["src/test/globalSetup.ts"],
    // Outbound connections are refused beyond this machine (src/test/network.ts).
    setupFiles: ["src/test/setup.ts"],
    pool: "forks",
    // A worker runs its files one after another in one process, importing the app once: with a
    // process and a fresh import per file, imports were most of the suite's CPU (12 files: 140 s of
    // CPU isolated, 62 s shared). Each file still gets its own database and app (harness.ts); state
    // kept in a module must not leak between files (setup.ts empties what it keeps).
    isolate: false,
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
