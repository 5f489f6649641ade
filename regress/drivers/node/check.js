// node-postgres (npm pg) against a server: connect, parameterized queries
// of common types, pg's type parsers, a custom parser, a catalog query and
// errors. One "name: value" line per check; node_test.go runs it on
// PostgreSQL 15 and joind and compares the lines.
const pg = require('pg');

function show(v) {
  return JSON.stringify(v, (k, x) => (typeof x === 'bigint' ? x.toString() : x));
}

async function attempt(name, fn) {
  try {
    console.log(`${name}: ${show(await fn())}`);
  } catch (e) {
    console.log(`${name}: ERROR ${e.code} ${e.message}`);
  }
}

async function main() {
  const client = new pg.Client({ connectionString: process.argv[2] });
  await client.connect();
  const q = (text, values) => client.query(text, values);
  for (const s of [
    'drop table if exists np_t',
    'create table np_t (id int primary key, name text not null, n numeric(10,2), d date, ts timestamp, ' +
      'tz timestamptz, b boolean, f float8, big bigint, arr int[], tags text[], j jsonb, by bytea, iv interval)',
  ]) {
    await q(s);
  }
  await q("set timezone = 'UTC'");
  const ins = 'insert into np_t values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)';
  await q(ins, [1, 'one', '1.50', '2024-01-02', '2024-01-02 03:04:05', new Date(Date.UTC(2024, 0, 2, 3, 4, 5)),
    true, 0.25, '9007199254740993', [1, 2, 3], ['a', 'b c'], { k: [1, 'x'] }, Buffer.from([0, 1, 255]), '1 day 02:00:00']);
  await q(ins, [2, 'two', null, null, null, null, false, null, null, null, null, null, null, null]);
  await attempt('rows', async () => (await q('select * from np_t order by id')).rows);
  await attempt('types', async () => (await q('select * from np_t where id = $1', [1])).rows.map(
    (r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v === null ? 'null' : v.constructor.name]))));
  await attempt('fields', async () => (await q('select id, name, n, arr from np_t limit 1')).fields.map(
    (f) => [f.name, f.dataTypeID, f.format]));
  await attempt('rowMode array', async () => (await client.query({ text: 'select id, name from np_t order by id', rowMode: 'array' })).rows);
  await attempt('params', async () => (await q('select $1::int + 1 as a, $2::text || $3 as b, $4::numeric * 2 as c, $5::date + 1 as d',
    [41, 'x', 'y', '1.25', '2024-02-28'])).rows);
  await attempt('named statement', async () => {
    const out = [];
    for (const id of [1, 2, 1]) {
      out.push((await client.query({ name: 'np_by_id', text: 'select name from np_t where id = $1', values: [id] })).rows);
    }
    return out;
  });
  await attempt('rowCount', async () => {
    const r = await q('update np_t set f = f where id > $1', [0]);
    return [r.command, r.rowCount];
  });
  // A custom type parser (numeric as a float) on this client only.
  await attempt('custom parser', async () => (await client.query({
    text: 'select n from np_t where id = 1',
    types: { getTypeParser: (oid, fmt) => (oid === 1700 ? (v) => parseFloat(v) * 10 : pg.types.getTypeParser(oid, fmt)) },
  })).rows);
  await attempt('catalog', async () => (await q(
    "select a.attname, format_type(a.atttypid, a.atttypmod) as type, a.attnotnull from pg_attribute a " +
      "join pg_class c on c.oid = a.attrelid where c.relname = $1 and a.attnum > 0 and not a.attisdropped order by a.attnum",
    ['np_t'])).rows);
  await attempt('tables', async () => (await q(
    "select table_name, table_type from information_schema.tables where table_schema = 'public' and table_name like 'np%'")).rows);
  await attempt('syntax error', () => q('selec 1'));
  await attempt('unique violation', () => q(ins, [1, 'dup', null, null, null, null, null, null, null, null, null, null, null, null]));
  await attempt('not null violation', () => q('insert into np_t (id) values (3)'));
  await attempt('after error', async () => (await q('select count(*)::int as n from np_t')).rows);
  await client.end();

  const pool = new pg.Pool({ connectionString: process.argv[2], max: 2 });
  await attempt('pool', async () => (await Promise.all([1, 2, 3].map((i) => pool.query('select $1::int * 2 as v', [i])))).map((r) => r.rows[0].v));
  await pool.end();
}

main().catch((e) => {
  console.log(`fatal: ${e.stack}`);
  process.exit(1);
});
