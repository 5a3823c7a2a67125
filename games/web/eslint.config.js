// The web client's lint (npm run lint, make lint): eslint's recommended rules, browser and
// service-worker globals, ES modules, and no way for text to be parsed as HTML or code (the
// client writes text through textContent and dom.js's h(); see docs/web-client.md).
//
// `npm run lint` runs eslint from games/ so that the push service worker (games/notify/) is
// inside its base path; the patterns below start with **/ to match from games/ or games/web/.

import js from "@eslint/js";
import globals from "globals";

const HTML_SINKS = ["innerHTML", "outerHTML", "insertAdjacentHTML", "srcdoc",
  "createContextualFragment", "setHTMLUnsafe", "parseHTMLUnsafe"];
const AS_HTML = "Text goes in with textContent or dom.js's h(), never as HTML.";

const noHtmlSinks = {
  "no-restricted-properties": ["error",
    ...HTML_SINKS.map((property) => ({ property, message: AS_HTML })),
    { object: "document", property: "write", message: AS_HTML },
    { object: "document", property: "writeln", message: AS_HTML },
  ],
  "no-restricted-syntax": ["error",
    { selector: "NewExpression[callee.name='DOMParser']", message: AS_HTML },
  ],
  "no-eval": "error",
  "no-implied-eval": "error",
  "no-new-func": "error",
  "no-script-url": "error",
};

export default [
  { ignores: ["**/node_modules/"] },
  js.configs.recommended,
  {
    files: ["**/static/boardpost/**/*.js"],
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: "module",
      globals: globals.browser,
    },
    rules: noHtmlSinks,
  },
  {
    files: ["**/notify/serviceworker.js", "**/web/offline-worker.js"],
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: "script",
      globals: globals.serviceworker,
    },
    rules: noHtmlSinks,
  },
  {
    files: ["**/web/eslint.config.js"],
    languageOptions: { ecmaVersion: 2024, sourceType: "module", globals: globals.node },
  },
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
  },
];
