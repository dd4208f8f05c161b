// Validates an AsyncAPI document with the AsyncAPI parser (its schema and its semantic rules, as the AsyncAPI
// tooling does): exits 1 and prints every diagnostic of severity error, else prints one line and exits 0.
// Usage: node .ci/asyncapi/validate.mjs docs/schema/asyncapi.json
import { readFile } from 'node:fs/promises';
import { Parser, DiagnosticSeverity } from '@asyncapi/parser';

const path = process.argv[2] ?? 'docs/schema/asyncapi.json';
const parser = new Parser();
const { document, diagnostics } = await parser.parse(await readFile(path, 'utf8'));
const errors = diagnostics.filter((item) => item.severity === DiagnosticSeverity.Error);
const warnings = diagnostics.filter((item) => item.severity === DiagnosticSeverity.Warning);
for (const item of [...errors, ...warnings]) {
  const where = item.path?.join('.') || '(document)';
  console.log(`${item.severity === DiagnosticSeverity.Error ? 'error' : 'warning'} ${item.code} at ${where}: ${item.message}`);
}
if (!document || errors.length) {
  console.error(`${path}: not a valid AsyncAPI document (${errors.length} errors)`);
  process.exit(1);
}
console.log(`${path}: valid AsyncAPI ${document.version()} (${document.operations().length} operations, ${document.allMessages().length} messages; ${warnings.length} warnings)`);
