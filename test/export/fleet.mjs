// fleet.mjs D9TOP MKSEG WORK: segments as a fleet keeps them (mkseg.c:
// dial9 0.5.1's system metadata, no names in the metadata). Checks:
// - names from dial9's S3 key layout in the path (service=, instance=,
//   boot=) become the partitions and the boot column;
// - the system's hostname, kernel and CPU model land in `segments`;
// - segments cat'ed into one stream (stdin) are exported one by one as
//   they stream in: a source key each, the polls --json counts, and
//   the same stream again writes nothing;
// - a file holding two segments: both exported, then nothing new;
// - the same segments through each way (the files, stdin, the file of
//   two) land in the same leaves: once exported one way, another writes
//   nothing (the fleet's rows are not doubled).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, readdirSync, statSync, writeFileSync, readFileSync,
  existsSync } from 'node:fs';
import { join } from 'node:path';
import { readers, check, done } from './modules.mjs';

const [d9top, mkseg, work] = process.argv.slice(2, 5);
const r = await readers();
rmSync(work, { recursive: true, force: true });
const boot = '5f1e8c2a-0d4b-4c6e-9a1f-2b3c4d5e6f70';
const keyDir = join(work, 's3', 'd9', 'service=checkout', 'instance=i-0abc',
  `boot=${boot}`);
mkdirSync(keyDir, { recursive: true });
const segs = [0, 1].map((k) => {
  const p = join(keyDir, `trace.${k}.bin`);
  execFileSync(mkseg, [p, String(k)]);
  return p;
});
const both = join(work, 'both.bin');
writeFileSync(both, Buffer.concat(segs.map((p) => readFileSync(p))));

const tab = (out, t) => `read_parquet('${out}/${t}/**/*.parquet', hive_partitioning=true, union_by_name=true)`;
const num = (v) => (v === null || v === undefined ? null : Number(v));
function exportTo(out, args, input) {
  const x = spawnSync(d9top, ['--export', 'parquet', out, ...args],
    { encoding: 'utf8', input });
  check(`export to ${out}: exit status`, x.status, 0);
  return x.stderr;
}
// every file under dir but the marks of files exported whole (a run
// that reads a file adds its mark: bookkeeping, not a table's file)
function snapshot(dir) {
  const s = {};
  const walk = (d) => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory() && e.name === '.whole') continue;
      if (e.isDirectory()) walk(p);
      else { const st = statSync(p); s[p] = `${st.ino}:${st.size}:${st.mtimeMs}`; }
    }
  };
  walk(dir);
  return JSON.stringify(s);
}
const polls = Object.values(JSON.parse(execFileSync(d9top,
  ['--json', '--no-cache', ...segs])).polls).reduce((a, b) => a + b, 0);
check('the two segments hold polls', polls, 20);

// the S3 key layout and the system's metadata
{
  const out = join(work, 'out-s3');
  exportTo(out, [join(work, 's3')]);
  const rows = await r.sql(`SELECT service, host, boot, date, hostname,
    kernel, cpu_model, file FROM ${tab(out, 'segments')} ORDER BY first_ns`);
  check('key layout: segments', rows.length, 2);
  for (const x of rows) {
    check('key layout: service', x.service, 'checkout');
    check('key layout: host', x.host, 'i-0abc');
    check('key layout: boot', x.boot, boot);
    check('key layout: date', String(x.date), '2026-11-27');
    check('system: hostname', x.hostname, 'ip-10-0-0-1');
    check('system: kernel', x.kernel, '6.1.0-18-amd64');
    check('system: cpu_model', x.cpu_model, 'Intel(R) Xeon(R) 8375C');
  }
  const p = await r.sql(`SELECT count(*) AS n FROM ${tab(out, 'polls')}
    WHERE service = 'checkout' AND host = 'i-0abc'`);
  check('key layout: polls in the partition', num(p[0].n), polls);
}

// one stream of two segments (stdin), and a file of two segments
for (const [name, args, input] of [['stdin', ['-'], readFileSync(both)],
  ['file of two', [both], undefined]]) {
  const out = join(work, `out-${name.replaceAll(' ', '-')}`);
  exportTo(out, args, input);
  const g = await r.sql(`SELECT count(*) AS n, count(DISTINCT source_key) AS k
    FROM ${tab(out, 'segments')}`);
  check(`${name}: segments`, num(g[0].n), 2);
  check(`${name}: a source key per segment`, num(g[0].k), 2);
  const p = await r.sql(`SELECT count(*) AS n, count(DISTINCT source_key) AS k
    FROM ${tab(out, 'polls')}`);
  check(`${name}: polls`, [num(p[0].n), num(p[0].k)], [polls, 2]);
  check(`${name}: no .tmp left`, /\.tmp"/.test(snapshot(out)), false);
  const before = snapshot(out);
  const said = exportTo(out, args, input);
  check(`${name}: again touches nothing`, snapshot(out) === before, true);
  check(`${name}: again says so`, /exported 0 of 1 .*1 already there/.test(said), true);
}

// the same bytes whichever way they arrive: the same leaves, once
{
  // table/leaf: the partitions differ (stdin has no S3 key path)
  const leaves = (out) => Object.keys(JSON.parse(snapshot(out)))
    .filter((p) => p.endsWith('.parquet')).map((p) => {
      const q = p.slice(out.length + 1).split('/');
      return `${q[0]}/${q[q.length - 1]}`;
    }).sort();
  const ways = [['files', segs, undefined], ['stdin', ['-'], readFileSync(both)],
    ['file of two', [both], undefined]];
  const first = join(work, 'out-ways-files');
  exportTo(first, segs);
  const want = leaves(first);
  check('ways: leaves written', want.length >= 10, true);
  for (const [name, args, input] of ways.slice(1)) {
    const out = join(work, `out-ways-${name.replaceAll(' ', '-')}`);
    exportTo(out, args, input);
    check(`ways: ${name} writes the files' leaves`, leaves(out), want);
    const before = snapshot(first);
    const said = exportTo(first, args, input);
    check(`ways: ${name} after the files touches nothing`,
      snapshot(first) === before, true);
    check(`ways: ${name} after the files says so`,
      /exported 0 of 1 .*1 already there/.test(said), true);
  }
}
done('export fleet');
