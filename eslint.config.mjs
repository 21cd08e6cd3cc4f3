// ESLint (flat config). Prettier owns layout (eslint-config-prettier, last, turns off every rule it would fight);
// ESLint catches what type checking and review miss: hook dependencies, Next.js pitfalls, unused code.
import { defineConfig, globalIgnores } from "eslint/config";
import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";
import prettier from "eslint-config-prettier/flat";
import reactHooks from "eslint-plugin-react-hooks";

export default defineConfig([
  // Generated or data files, as in .prettierignore, and build outputs.
  globalIgnores([
    "db/migrations/",
    "rubrics/",
    ".next/",
    ".next-*/",
    ".data/",
    ".test-data/",
    "test-results/",
    "test-results-*/",
    "playwright-report/",
    "bench/results/",
    "next-env.d.ts",
  ]),
  // Next's rules (React, hooks, import, jsx-a11y, @next/next core web vitals) and typescript-eslint's recommended set.
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    files: ["**/*.{js,jsx,mjs,cjs,ts,tsx,mts,cts}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      // A missing dependency is a stale closure: an error, not a warning.
      "react-hooks/exhaustive-deps": "error",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/no-unused-expressions": "error",
      // React Compiler rules of react-hooks 7 (on in its recommended set) that the code does not follow: the studio
      // is not built with the compiler, and its hooks keep "latest value" refs written during render (`refs`) and
      // reset local state when an input changes (`set-state-in-effect`) on purpose. The compiler rules it does
      // follow stay on (purity, immutability, error-boundaries, ...): they are most of a cold run's time (the
      // compiler analyses every component, ~30 of ~70 CPU seconds), and the cache makes later runs cheap.
      "react-hooks/refs": "off",
      "react-hooks/set-state-in-effect": "off",
    },
  },
  {
    // One block for both rules: a file two blocks match keeps only the last one's no-restricted-syntax.
    files: ["components/**", "app/**", "lib/**", "server/**"],
    ignores: ["components/api/refetch-after-change.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          // A page that hears of a change, or made one, reads again through refetchAfterChange: React Query's own
          // invalidation hands a query whose first read is still in flight that same read, answered before the change.
          selector: "CallExpression[callee.property.name=/^(invalidateQueries|refetchQueries)$/]",
          message: "Read again with refetchAfterChange (components/api/refetch-after-change.ts).",
        },
        {
          // Next.js gzips every answer, tens of bytes too (2-3 ms a request): jsonAnswer sends a small one as it is.
          selector: "CallExpression[callee.object.name=/^(Response|NextResponse)$/][callee.property.name='json']",
          message: "Answer JSON with jsonAnswer (server/http/json-answer.ts).",
        },
      ],
    },
  },
  {
    // Playwright hands each fixture a callback named `use`; no React runs in e2e.
    files: ["e2e/**"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
  prettier,
]);
