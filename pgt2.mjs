import { cpSync, rmSync } from 'node:fs';
const src = '/work/main/node_modules/.cache/vat-embedded-pg/seeded-224f4f08472fde69/pg';
for (const run of [1,2,3,4]) {
const d = `/tmp/cc-${process.pid}-${run}`;
let t = performance.now();
cpSync(src, d, { recursive: true });
console.log('all', run, performance.now() - t);
}
