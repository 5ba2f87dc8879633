// readme.mjs D9TOP WORK README TRACE: the DuckDB queries of README.md's
// "Past one machine" section, run on an export of TRACE (their path
// /data/d9 put to it), give what d9top --json says of TRACE. Athena and
// Spark cannot run here: the Athena table's columns are checked against
// the files (names, order, types), and the SQL of the Athena and Spark
// queries is run by DuckDB (the dialects agree on it) over views of the
// export named as those engines' tables.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { readers, check, done } from './modules.mjs';

const [d9top, work, readme, trace] = process.argv.slice(2, 6);
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
// Athena: the table's columns are the files' (partitions apart)
const athena = [...section.matchAll(/```athena\n([\s\S]*?)```/g)].map((m) => m[1]);
check('Athena blocks', athena.length, 2);
const ddl = athena[0];
const cols = ddl.split('(').slice(1).join('(').split(')\nPARTITIONED BY')[0]
  .split(',').map((c) => c.trim().split(/\s+/));
const polls = `read_parquet('${out}/polls/**/*.parquet', hive_partitioning = true)`;
const desc = await r.sql(`DESCRIBE SELECT * EXCLUDE (service, date, host) FROM ${polls}`);
const fits = { bigint: /^U?(BIGINT|INTEGER|SMALLINT|TINYINT)$/,
  string: /^VARCHAR$/, boolean: /^BOOLEAN$/ };
check('Athena columns', cols.map((c) => c[0]), desc.map((d) => d.column_name));
for (let i = 0; i < cols.length && i < desc.length; i++)
  check(`Athena type of ${cols[i][0]} (${desc[i].column_type})`,
    (fits[cols[i][1]] || /^$/).test(desc[i].column_type), true);
check('Athena partitions', /PARTITIONED BY \(service string, `date` string, host string\)/.test(ddl), true);
check('Athena location template',
  ddl.includes("'s3://bucket/d9/polls/service=${service}/date=${date}/host=${host}/'"), true);
// its query, and Spark's, by DuckDB over views named as their tables
await r.sql(`CREATE VIEW d9_polls AS SELECT * FROM ${polls}`);
await r.sql(`CREATE VIEW polls AS SELECT * FROM ${polls}`);
const longHosts = await r.sql(athena[1]);
check('Athena query: rows', longHosts.length, 1);
check('Athena query: long polls', n(longHosts[0]?.long_polls), j.longPolls);
const spark = section.match(/```spark\n[\s\S]*?spark\.sql\("""([\s\S]*?)"""\)/);
check('Spark block', spark !== null, true);
const sparkRows = spark ? await r.sql(spark[1]) : [];
check('Spark query: delayed polls',
  sparkRows.reduce((a, h) => a + n(h.delayed_polls), 0), j.schedDelay.over1ms);
console.log('note: Athena and Spark were not run; their SQL ran in DuckDB');
done('README queries');
