// ESLint flat config: typescript-eslint's type-aware rules over every TypeScript file.
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/", "dist/", ".tools/", "reports/", "coverage/"] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Template literals with numbers are how this project builds paths and messages.
      "@typescript-eslint/restrict-template-expressions": ["error", { allowNumber: true }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // @types/k6 declares plain option objects (scenarios) as classes; object literals are how k6 is configured.
      "@typescript-eslint/no-unsafe-class-instance-assignment": "off",
    },
  },
  {
    // The k6 side has no console discipline of its own; keep the iteration loop free of console.log.
    files: ["lib/k6/**/*.ts", "scenarios/**/*.ts"],
    rules: { "no-console": ["error", { allow: ["warn", "error"] }] },
  },
  // The layers import one way (docs/architecture.md): lib/contract is the spec as code, read by k6 and Node alike, so
  // it imports neither; what runs in k6 (lib/k6) never imports the harness around it, nor the harness lib/k6. What
  // both sides need lives in lib/contract. The harness tests any service, so it imports nothing of the reference
  // service either; the reference's seeded world (lib/reference, pure) is what the service and the harness's dry-run
  // estimate of the embedded target share. Each layer's tsconfig.*.json gives it only its runtime's types.
  {
    files: ["lib/contract/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["node:*", "k6", "k6/*"], message: "lib/contract is runtime-neutral: no Node or k6 modules." },
            {
              group: ["**/k6/**", "**/harness/**", "**/service/**", "**/reference/**"],
              message: "lib/contract imports nothing of ours.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["lib/k6/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["node:*"], message: "lib/k6 runs inside k6: no Node modules." },
            {
              group: ["**/harness/**", "**/service/**", "**/reference/**"],
              message:
                "lib/k6 imports nothing of the harness or the (reference) service; move what both need to lib/contract.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["lib/harness/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/k6/**", "k6", "k6/*"],
              message: "lib/harness imports nothing of lib/k6 (it runs in Node); move what both need to lib/contract.",
            },
            {
              group: ["**/service/**"],
              message:
                "lib/harness imports nothing of service/ (it tests any service): take the reference's seeded world from lib/reference, or have the command (scripts/) hand in what only the service knows.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["lib/reference/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["node:*", "k6", "k6/*"],
              message: "lib/reference is pure and runtime-neutral: no Node or k6 modules.",
            },
            {
              group: ["**/k6/**", "**/harness/**", "**/service/**"],
              message: "lib/reference imports only lib/contract: the service and the harness import it, not it them.",
            },
          ],
        },
      ],
    },
  },
  {
    // Functions stay short enough to read in one screen (the project's guide), counted whole: comments and blank lines
    // are read too. Data literals that are long by nature say so with an eslint-disable comment of their own. Tests
    // are exempt: a describe block is a list of cases.
    files: ["lib/**/*.ts", "service/**/*.ts", "scenarios/**/*.ts", "scripts/**/*.ts", "bench/**/*.ts"],
    rules: { "max-lines-per-function": ["error", { max: 80, IIFEs: true }] },
  },
  { files: ["**/*.js"], ...tseslint.configs.disableTypeChecked },
);
