// Lints the repository's JavaScript with ESLint (eslint.config.mjs): the player's script, taken out of
// resources/web/player.html with every other line blanked so that ESLint's line numbers are the page's, and the
// endpoint's JavaScript client test. Exits 1 with ESLint's report when anything is found.
import { ESLint } from "eslint";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const page = join(root, "resources/web/player.html");
const html = readFileSync(page, "utf8");
// The one <script> without a type: the player (the others hold the run's data).
const open = html.search(/<script>/), close = html.indexOf("</script>", open);
if (open < 0 || close < 0) {
  console.error(`${page}: no <script> to lint`);
  process.exit(1);
}
const code = html.slice(0, open + "<script>".length).replace(/[^\n]/g, "") + html.slice(open + "<script>".length, close);
const work = join(root, "build/lint"); // inside the tree (ESLint lints nothing outside its base), ignored by git
mkdirSync(work, { recursive: true });
const player = join(work, "player.js");
writeFileSync(player, code);

const eslint = new ESLint({ cwd: root, overrideConfigFile: join(here, "eslint.config.mjs") });
const results = [
  ...(await eslint.lintFiles([player])).map(r => ({ ...r, filePath: page })),
  ...(await eslint.lintFiles([join(root, "tests/endpoint/json_client.mjs"), join(root, "tests/import/otel_consumer.cjs")])),
];
const problems = results.reduce((n, r) => n + r.errorCount + r.warningCount, 0);
if (problems) {
  console.error((await eslint.loadFormatter("stylish")).format(results));
  process.exit(1);
}
console.log(`eslint: the player's script and ${results.length - 1} JavaScript files are clean`);
