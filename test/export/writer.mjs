// writer.mjs WRITER FILE ROWS: the round-trip file of writer.c (the
// program WRITER writes FILE) read back by hyparquet (every value of
// every row) and DuckDB (aggregates, the footer's statistics, a row).
import { execFileSync } from 'node:child_process';
import { readers, check, done } from './modules.mjs';

const [bin, file] = process.argv.slice(2, 4);
const nrows = Number(process.argv[4] || 300000);
const r = await readers();
execFileSync(bin, [file, String(nrows)], { stdio: 'inherit' });

function expect(i) {
  const bi = BigInt(i);
  const frames = [];
  for (let f = 0; f < i % 4; f++) frames.push(`f${i % 13}_${f}`);
  const fields = {};
  for (let f = 0; f < i % 3; f++) fields[`k${f}`] = `v${i * f}`;
  const id = [];
  for (let b = 0; b < 16; b++) id.push(((i % 1000) + b * 7) & 255);
  return {
    b: i % 3 === 0,
    u8: i % 7 === 0 ? null : i % 256,
    u32: 4000000000 + i,
    i64: (bi - 150000n) * 1000000007n,
    u64: i % 5 === 0 ? null : (1n << 63n) + bi,
    d: i / 4,
    s: i % 11 === 0 ? null : `loc-${i % 100}`,
    uniq: `u${i}`,
    id, frames, fields,
  };
}

function norm(v) {
  if (v instanceof Uint8Array) return Array.from(v);
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Map) return Object.fromEntries(v);
  return v;
}

const { meta, rows } = await r.hyRows(file);
check('hyparquet rows', rows.length, nrows);
check('hyparquet row groups', meta.row_groups.length, Math.ceil(nrows / 131072));
let bad = 0;
for (let i = 0; i < rows.length && bad < 5; i++) {
  const want = expect(i), got = rows[i];
  for (const k of Object.keys(want)) {
    let g = norm(got[k]), w = norm(want[k]);
    if (k === 'u32' || k === 'u8') g = g === null ? null : Number(g);
    if (JSON.stringify(g) !== JSON.stringify(w)) {
      check(`hyparquet row ${i} ${k}`, g, w);
      bad++;
    }
  }
}

const q = (s) => r.sql(s.replaceAll('$F', `read_parquet('${file}')`));
const [a] = await q(`SELECT count(*) AS n, sum(b::INT) AS b, count(u8) AS u8n,
  sum(u8) AS u8s, min(u32) AS u32min, max(u32) AS u32max, min(i64) AS i64min,
  max(u64) AS u64max, count(u64) AS u64n, sum(d) AS d, count(s) AS sn,
  count(DISTINCT uniq) AS uniq, sum(len(frames)) AS frames,
  sum(cardinality(fields)) AS fields FROM $F`);
let e = { n: 0, b: 0, u8n: 0, u8s: 0, u64n: 0, d: 0, sn: 0, frames: 0, fields: 0 };
for (let i = 0; i < nrows; i++) {
  const x = expect(i);
  e.n++; e.b += x.b; e.u8n += x.u8 !== null; e.u8s += x.u8 || 0;
  e.u64n += x.u64 !== null; e.d += x.d; e.sn += x.s !== null;
  e.frames += x.frames.length; e.fields += Object.keys(x.fields).length;
}
check('duckdb count', Number(a.n), e.n);
check('duckdb bools', Number(a.b), e.b);
check('duckdb u8 count', Number(a.u8n), e.u8n);
check('duckdb u8 sum', Number(a.u8s), e.u8s);
check('duckdb u32 min', Number(a.u32min), 4000000000);
check('duckdb u32 max', Number(a.u32max), 4000000000 + nrows - 1);
check('duckdb i64 min', a.i64min, -150000n * 1000000007n);
check('duckdb u64 max', a.u64max, (1n << 63n) + BigInt(nrows - 1 - ((nrows - 1) % 5 === 0 ? 1 : 0)));
check('duckdb u64 count', Number(a.u64n), e.u64n);
check('duckdb double sum', Number(a.d), e.d);
check('duckdb string count', Number(a.sn), e.sn);
check('duckdb distinct', Number(a.uniq), nrows);
check('duckdb list elements', Number(a.frames), e.frames);
check('duckdb map entries', Number(a.fields), e.fields);
const [m] = await q(`SELECT fields['k1'] AS v, frames[1] AS f, hex(id) AS id FROM $F LIMIT 1 OFFSET 5`);
check('duckdb map lookup', m.v, 'v5');
check('duckdb list element', m.f, 'f5_0');
check('duckdb fixed', m.id, '050C131A21282F363D444B525960676E');
// statistics: min and max of the first row group as the footer says
const st = await r.sql(`SELECT path_in_schema AS p, stats_min_value AS lo,
  stats_max_value AS hi, stats_null_count AS nulls FROM parquet_metadata('${file}')
  WHERE row_group_id = 0 ORDER BY column_id`);
const by = Object.fromEntries(st.map((x) => [x.p, x]));
const g0 = Math.min(nrows, 131072);
check('stats u32', [by.u32.lo, by.u32.hi], ['4000000000', String(4000000000 + g0 - 1)]);
check('stats i64 min', by.i64.lo, String(-150000n * 1000000007n));
check('stats u8 nulls', Number(by.u8.nulls), Math.ceil(g0 / 7));
check('stats string', [by.s.lo, by.s.hi], ['loc-0', 'loc-99']);
check('stats double', [by.d.lo, by.d.hi], ['-0.0', String((g0 - 1) / 4)]);
done('writer round trip');
