import js from "@eslint/js";
import globals from "globals";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

// Baileys is imported through channels/baileys/lib.ts, which makes protobufjs leave V8's empty-object
// shape alone before WhatsApp's protocol loads (channels/baileys/protobufShapes.ts).
const BAILEYS_THROUGH_LIB = {
  name: "@whiskeysockets/baileys",
  message: "Import Baileys from server/src/channels/baileys/lib.ts (see protobufShapes.ts there).",
};

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/dist/**",
      "data/**",
      "**/data/**",
      "e2e/test-results/**",
      "e2e/playwright-report/**",
      "server/drizzle/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  {
    // The background worker runs in the browser's service-worker scope.
    files: ["web/public/sw.js"],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    // Every database statement lives in a queries.ts (or under db/): services, routes and channels
    // call named helpers that take the company first. Types of rows may still be imported anywhere.
    files: ["server/src/**/*.ts"],
    ignores: [
      "server/src/**/queries.ts",
      // A domain whose statements would pass 400 lines in one file keeps a topic's in <topic>Queries.ts.
      "server/src/**/*Queries.ts",
      "server/src/db/**",
      // The demo data writes its rows as they are (it runs before any module, at a first start).
      "server/src/seed/**",
      "server/src/**/*.test.ts",
      "server/src/test/**",
      // A module's test setup shared by its split test files (tickets/testing.ts ...): tests, not the app.
      "server/src/modules/**/testing.ts",
      "server/src/channels/baileys/lib.ts",
    ],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [BAILEYS_THROUGH_LIB],
          patterns: [
            {
              group: ["drizzle-orm", "drizzle-orm/*"],
              allowTypeImports: true,
              message: "Database statements live in a queries.ts (or under src/db/).",
            },
            {
              regex: "(^|/)db/schema(\\.js|/.*)?$",
              allowTypeImports: true,
              message:
                "Tables are used in a queries.ts (or under src/db/); import row types with `import type`.",
            },
          ],
        },
      ],
    },
  },
  {
    // The tests' files, which the block above leaves out, import Baileys the same way.
    files: ["server/src/**/*.test.ts", "server/src/test/**", "server/src/modules/**/testing.ts"],
    rules: { "no-restricted-imports": ["error", { paths: [BAILEYS_THROUGH_LIB] }] },
  },
  {
    files: ["web/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      // The web asks the server what its user may do (the session's `permissions`), never the table.
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "@atende/contracts",
              importNames: ["can", "PERMISSIONS"],
              message: "Read the session's permissions with can() from web/src/auth/permissions.ts.",
            },
          ],
        },
      ],
    },
  },
);
