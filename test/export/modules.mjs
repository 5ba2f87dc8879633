// modules.mjs: the readers that judge the exported files, loaded from the
// node_modules folder build.sh fills (npm ci of test/export's lock file),
// named by D9_NODE_MODULES. A script whose readers are missing exits 77
// (meson's skip).
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = process.env.D9_NODE_MODULES || '';

function entry(name) {
  const root = join(dir, name);
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  let e = pkg.exports && pkg.exports['.'];
  // hyparquet: { browser: ..., default: { import: './src/node.js' } }
  while (e && typeof e === 'object')
    e = e.node || e.default || e.import;
  return join(root, e || pkg.main || 'index.js');
}

export async function load(name) {
  if (!dir || !existsSync(join(dir, name, 'package.json'))) {
    console.log(`SKIP: ${name} is not installed (D9_NODE_MODULES=${dir})`);
    process.exit(77);
  }
  return import(pathToFileURL(entry(name)).href);
}

export async function readers() {
  const hyparquet = await load('hyparquet');
  const { compressors } = await load('hyparquet-compressors');
  const duck = await load('@duckdb/node-api');
  const DuckDBInstance = duck.DuckDBInstance || duck.default.DuckDBInstance;
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  return {
    // every row of a file, as hyparquet reads it
    async hyRows(file) {
      const f = await hyparquet.asyncBufferFromFile(file);
      const meta = await hyparquet.parquetMetadataAsync(f);
      const rows = await hyparquet.parquetReadObjects({ file: f, compressors });
      return { meta, rows };
    },
    // rows of a DuckDB query, as objects
    async sql(q) {
      const r = await con.runAndReadAll(q);
      return r.getRowObjects();
    },
  };
}

let failures = 0;
export function check(what, got, want) {
  const g = typeof got === 'bigint' ? got.toString() : JSON.stringify(got);
  const w = typeof want === 'bigint' ? want.toString() : JSON.stringify(want);
  if (g !== w) {
    failures++;
    console.log(`FAIL ${what}: got ${g}, want ${w}`);
  }
}
export function done(name) {
  if (failures) {
    console.log(`${name}: ${failures} failures`);
    process.exit(1);
  }
  console.log(`${name}: ok`);
}
