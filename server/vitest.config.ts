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
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
