// readme.mjs D9TOP WORK README TRACE: the DuckDB queries of README.md's
// "Past one machine" section, run on an export of TRACE (their path
// /data/d9 put to it), give what d9top --json says of TRACE.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { readers, check, done } from './modules.mjs';

const [d9top, work, readme, trace] = process.argv.slice(2, 6);
if (!existsSync(trace)) {
  console.log(`SKIP: cannot read ${trace}`);
  process.exit(77);
}
const r = await readers();
const out = join(work, 'readme');
rmSync(out, { recursive: true, force: true });
const x = spawnSync(d9top, ['--export', 'parquet', out, trace], { encoding: 'utf8' });
check('export exit status', x.status, 0);
const j = JSON.parse(execFileSync(d9top, ['--json', '--no-cache', trace],
  { maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] }));

const text = readFileSync(readme, 'utf8');
const section = text.split('\n## Past one machine\n')[1].split('\n## ')[0];
const queries = [...section.matchAll(/```sql\n([\s\S]*?)```/g)]
  .map((m) => m[1].replaceAll('/data/d9', out));
check('queries in the section', queries.length, 4);
const all = (q) => r.sql(q.replace(/LIMIT 10;\s*$/, ';'));
const n = (v) => Number(v);

// 1: the slowest spawn locations: their counts and longest polls
for (const row of await all(queries[0])) {
  const f = j.pollByLoc[row.spawn_loc];
  if (f) check(`slowest locations: ${row.spawn_loc}`, [n(row.polls), n(row.max_ms)],
    [f.count, f.max / 1e6]);
}
check('slowest locations: rows', (await r.sql(queries[0])).length > 0, true);
// 2: the delayed polls of every host add up to schedDelay.over1ms
const hosts = await all(queries[1]);
check('sched delay over 1 ms', hosts.reduce((a, h) => a + n(h.delayed_polls), 0),
  j.schedDelay.over1ms);
// 3: the hottest stacks count every on-CPU sample once
const stacks = await all(queries[2]);
check('hottest stacks: on-CPU samples', stacks.reduce((a, s) => a + n(s.samples), 0), j.onCpu);
check('hottest stacks: rows', (await r.sql(queries[2])).length > 0, true);
// 4: live bytes by site add up to the live estimate (each site rounded
// to 0.01 MB)
const sites = await all(queries[3]);
const live = sites.reduce((a, s) => a + n(s.live_mb), 0) * 1e6;
check('live bytes by site', Math.abs(live - j.memory.liveBytes) <= 5000 * sites.length, true);
done('README queries');
