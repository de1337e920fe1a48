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
  { files: ["**/*.js"], ...tseslint.configs.disableTypeChecked },
);
