// figures.mjs D9TOP WORK TRACES: d9top --export parquet judged by the
// figures of d9top --json of the same inputs, every table read by both
// readers, on the three shared traces and a two-process directory; then
// re-export (no file touched), a new segment (its leaves only) and a
// killed export (no .parquet a reader rejects).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, readdirSync, statSync, symlinkSync, existsSync }
  from 'node:fs';
import { join } from 'node:path';
import { readers, check, done } from './modules.mjs';

const [d9top, work, traces] = process.argv.slice(2, 5);
const r = await readers();
const T = (f) => join(traces, f);
const shared = ['demo-2026-06.bin.gz', 'demo-2026-03.bin',
  'block-in-place-2026-05.bin'];
for (const f of shared)
  if (!existsSync(T(f))) {
    console.log(`SKIP: cannot read ${T(f)}`);
    process.exit(77);
  }

function json(inputs) {
  return JSON.parse(execFileSync(d9top, ['--json', '--no-cache', ...inputs],
    { maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] }));
}
function exportTo(out, inputs) {
  const x = spawnSync(d9top, ['--export', 'parquet', out, ...inputs],
    { encoding: 'utf8' });
  check(`export to ${out}: exit status`, x.status, 0);
  return x.stderr;
}
function files(dir, re = /\.parquet$/) {
  const out = [];
  const walk = (d) => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p); else if (re.test(e.name)) out.push(p);
    }
  };
  walk(dir);
  return out.sort();
}
// every file under dir but the marks of files exported whole (a run
// that reads a file adds its mark: bookkeeping, not a table's file)
function snapshot(dir) {
  const s = {};
  for (const f of files(dir, /./).filter((f) => !f.includes('/.whole/'))) {
    const st = statSync(f);
    s[f] = `${st.ino}:${st.size}:${st.mtimeMs}`;
  }
  return s;
}
const num = (v) => (v === null || v === undefined ? null : Number(v));
const tab = (out, t) => `read_parquet('${out}/${t}/**/*.parquet', hive_partitioning=true, union_by_name=true)`;
async function one(sql) { return (await r.sql(sql))[0]; }

// every file read whole by hyparquet, its rows as many as DuckDB counts
async function readAll(out, what) {
  const fs = files(out);
  for (const f of fs) {
    let rows = -1;
    try { rows = (await r.hyRows(f)).rows.length; } catch (e) {
      check(`${what}: hyparquet reads ${f}`, String(e), 'no error');
    }
    const d = await one(`SELECT count(*) AS n FROM read_parquet('${f}')`);
    check(`${what}: rows of ${f}`, rows, Number(d.n));
  }
  return fs.length;
}

// the figures of --json the tables must give
async function figures(out, j, what) {
  const polls = Object.values(j.polls).reduce((a, b) => a + b, 0);
  const p = await one(`SELECT count(*) AS n, max(duration_ns) AS longest,
    count(*) FILTER (WHERE duration_ns > 1000000) AS long FROM ${tab(out, 'polls')}`);
  check(`${what}: polls`, num(p.n), polls);
  check(`${what}: longest poll`, num(p.longest), j.worstPolls[0].durNs);
  check(`${what}: long polls`, num(p.long), j.longPolls);
  const [w] = await r.sql(`SELECT verdict FROM ${tab(out, 'polls')}
    ORDER BY duration_ns DESC, start_ns LIMIT 1`);
  check(`${what}: worst poll's verdict`, w.verdict, j.worstPolls[0].verdict.kind);
  // p99 per spawn location, nearest rank as d9m_rank: (n * 99 + 50) / 100
  const locs = await r.sql(`SELECT coalesce(spawn_loc, '(unknown)') AS loc,
    count(*) AS n, max(duration_ns) AS mx,
    list_sort(list(duration_ns))[greatest(1, least(count(*), (count(*) * 99 + 50) // 100))] AS p99
    FROM ${tab(out, 'polls')} GROUP BY 1`);
  const byLoc = Object.fromEntries(locs.map((x) => [x.loc, x]));
  for (const [loc, f] of Object.entries(j.pollByLoc)) {
    const x = byLoc[loc] || {};
    check(`${what}: pollByLoc ${loc}`, [num(x.n), num(x.p99), num(x.mx)],
      [f.count, f.p99, f.max]);
  }
  const s = await one(`SELECT count(*) AS n,
    count(*) FILTER (WHERE source = 0) AS oncpu,
    sum(weight) FILTER (WHERE source = 1) AS offcpu,
    sum(weight) FILTER (WHERE source = 1 AND poll_task_id IS NOT NULL) AS inpoll
    FROM ${tab(out, 'samples')}`);
  check(`${what}: cpuSamples`, num(s.n), j.cpuSamples);
  check(`${what}: onCpu`, num(s.oncpu), j.onCpu);
  check(`${what}: offCpu`, num(s.offcpu) || 0, j.offCpu);
  check(`${what}: offCpuInPoll`, num(s.inpoll) || 0, j.offCpuInPoll);
  // samples joined to stacks: every id named, the on-CPU leaves counted
  const miss = await one(`SELECT count(*) AS n FROM ${tab(out, 'samples')} s
    ANTI JOIN ${tab(out, 'stacks')} t USING (source_key, stack_id)`);
  check(`${what}: samples without their stack`, num(miss.n), 0);
  const leaves = await r.sql(`SELECT t.frames[1] AS leaf, count(*) AS n
    FROM ${tab(out, 'samples')} s JOIN ${tab(out, 'stacks')} t
    USING (source_key, stack_id) WHERE s.source = 0 GROUP BY 1`);
  const byLeaf = Object.fromEntries(leaves.map((x) => [x.leaf, num(x.n)]));
  for (const [leaf, n] of Object.entries(j.cpuLeaves || {}))
    check(`${what}: on-CPU samples with leaf ${leaf}`, byLeaf[leaf], n);
  const sd = await one(`SELECT count(sched_delay_ns) AS n, max(sched_delay_ns) AS mx,
    count(*) FILTER (WHERE sched_delay_ns > 1000000) AS over FROM ${tab(out, 'polls')}`);
  check(`${what}: schedDelay`, [num(sd.n), num(sd.mx) || 0, num(sd.over)],
    [j.schedDelay.count, j.schedDelay.max ?? 0, j.schedDelay.over1ms]);
  const spans = await r.sql(`SELECT name, count(*) AS n, max(duration_ns) AS mx
    FROM ${tab(out, 'spans')} GROUP BY 1`).catch(() => []);
  const bySpan = Object.fromEntries(spans.map((x) => [x.name, x]));
  for (const [name, f] of Object.entries(j.spans || {})) {
    const x = bySpan[name] || {};
    check(`${what}: spans ${name}`, [num(x.n), num(x.mx)], [f.count, f.max]);
  }
  if (j.memory && j.memory.sampledAllocs) {
    const a = await one(`SELECT count(*) AS n, round(sum(estimated_bytes)) AS est,
      count(*) FILTER (WHERE freed_ns IS NULL) AS live FROM ${tab(out, 'allocations')}`);
    check(`${what}: sampledAllocs`, num(a.n), j.memory.sampledAllocs);
    check(`${what}: estimatedTotalBytes`, num(a.est), j.memory.estimatedTotalBytes);
    const l = await one(`SELECT round(sum(estimated_bytes)) AS live
      FROM ${tab(out, 'allocations')} WHERE freed_ns IS NULL`);
    check(`${what}: liveBytes`, num(l.live) || 0, j.memory.liveBytes);
  }
  const parks = Object.values(j.parks).reduce((a, b) => a + b, 0);
  check(`${what}: parks`, num((await one(`SELECT count(*) AS n FROM ${tab(out, 'parks')}`)).n), parks);
  const segs = j.sources.reduce((a, b) => a + b.segments, 0);
  const g = await one(`SELECT count(*) AS n, count(DISTINCT source_key) AS k FROM ${tab(out, 'segments')}`);
  check(`${what}: segments`, num(g.n), segs);
  check(`${what}: sources`, num(g.k), j.sources.length);
  const tasks = j.sources.reduce((a, b) => a + b.tasks, 0);
  check(`${what}: tasks`, num((await one(`SELECT count(*) AS n FROM ${tab(out, 'tasks')}`)).n), tasks);
}

mkdirSync(work, { recursive: true });
const cases = shared.map((f) => [f, [T(f)]]);
// two processes in one directory (two services, two clocks)
const two = join(work, 'two-process');
rmSync(two, { recursive: true, force: true });
mkdirSync(two);
symlinkSync(T('demo-2026-06.bin.gz'), join(two, 'a.bin.gz'));
symlinkSync(T('block-in-place-2026-05.bin'), join(two, 'b.bin'));
cases.push(['two-process', [two]]);

for (const [name, inputs] of cases) {
  const out = join(work, `out-${name}`);
  rmSync(out, { recursive: true, force: true });
  exportTo(out, inputs);
  const n = await readAll(out, name);
  check(`${name}: some files`, n > 0, true);
  await figures(out, json(inputs), name);
  // again: nothing written, nothing touched
  const before = snapshot(out);
  const said = exportTo(out, inputs);
  check(`${name}: re-export touches nothing`, JSON.stringify(snapshot(out)) === JSON.stringify(before), true);
  check(`${name}: re-export says so`, /exported 0 of/.test(said), true);
}

// stdin: the same tables, and again nothing new the second time
{
  const out = join(work, 'out-stdin'), trace = T('demo-2026-06.bin.gz');
  rmSync(out, { recursive: true, force: true });
  const run = () => spawnSync('sh', ['-c', 'cat "$1" | "$2" --export parquet "$3" -',
    'sh', trace, d9top, out], { encoding: 'utf8' });
  check('stdin: exit status', run().status, 0);
  await readAll(out, 'stdin');
  await figures(out, json([trace]), 'stdin');
  const before = snapshot(out), again = run();
  check('stdin: again touches nothing', JSON.stringify(snapshot(out)) === JSON.stringify(before), true);
  check('stdin: again says so', /exported 0 of 1 .*1 already there/.test(again.stderr), true);
}

// a directory that gained a segment: the new one's leaves, nothing else
{
  const dir = join(work, 'growing'), out = join(work, 'out-growing');
  rmSync(dir, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
  mkdirSync(dir);
  symlinkSync(T('demo-2026-03.bin'), join(dir, 'trace.0.bin'));
  exportTo(out, [dir]);
  const before = snapshot(out);
  symlinkSync(T('block-in-place-2026-05.bin'), join(dir, 'trace.1.bin'));
  exportTo(out, [dir]);
  const after = snapshot(out);
  const added = Object.keys(after).filter((f) => !(f in before));
  const kept = Object.keys(before).every((f) => after[f] === before[f]);
  check('new segment: old leaves untouched', kept, true);
  const keys = new Set(added.map((f) => f.replace(/.*\//, '')));
  check('new segment: its leaves only (one key)', keys.size, 1);
  check('new segment: a leaf per table with rows', added.length > 5, true);
  await figures(out, json([dir]), 'growing');
}

// killed while writing: no .parquet a reader rejects; then finished
{
  const out = join(work, 'out-killed');
  let seen = false;
  for (let attempt = 0; attempt < 5 && !seen; attempt++) {
    rmSync(out, { recursive: true, force: true });
    const child = spawn(d9top, ['--export', 'parquet', out, ...shared.map(T)],
      { stdio: 'ignore' });
    const ended = new Promise((res) => child.on('exit', res));
    let over = false;
    ended.then(() => { over = true; });
    while (!over && !seen) {
      if (files(out, /\.tmp$/).length > 0) { child.kill('SIGKILL'); seen = true; }
      else await new Promise((res) => setImmediate(res));
    }
    await ended;
  }
  if (!seen) console.log('note: no export was caught writing; the check ran on finished ones');
  await readAll(out, 'killed');
  exportTo(out, shared.map(T));
  check('killed, then finished: no .tmp left', files(out, /\.tmp$/).length, 0);
  await readAll(out, 'killed then finished');
  await figures(out, json(shared.map(T)), 'killed then finished');
}
done('export figures');
