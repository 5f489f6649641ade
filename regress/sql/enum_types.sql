SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- enum types: CREATE TYPE ... AS ENUM, ordering, ALTER TYPE, casts, catalogs
CREATE TYPE et_mood AS ENUM ('sad', 'ok', 'happy');
CREATE TYPE et_mood AS ENUM ('x');
CREATE TYPE et_long AS ENUM ('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa');
CREATE TABLE et_t (m et_mood, n int);
INSERT INTO et_t VALUES ('happy', 1), ('sad', 2), ('ok', 3), (NULL, 4);
INSERT INTO et_t VALUES ('angry', 5);
SELECT * FROM et_t ORDER BY m, n;
SELECT * FROM et_t ORDER BY m DESC NULLS LAST, n;
SELECT * FROM et_t WHERE m > 'sad' ORDER BY n;
SELECT * FROM et_t WHERE m = 'ok';
SELECT 'x'::et_mood;
SELECT 'sad'::et_mood < 'happy'::et_mood AS lt, 'ok'::et_mood >= 'happy' AS ge, 'ok'::et_mood <> 'ok' AS ne;
SELECT 'sad'::et_mood = 'sad'::text;
SELECT 'sad'::et_mood::text AS t, 'happy'::text::et_mood AS m, pg_typeof('ok'::et_mood);
SELECT min(m), max(m), count(DISTINCT m) FROM et_t;
SELECT m, count(*) FROM et_t GROUP BY m ORDER BY m;
-- ALTER TYPE ... ADD VALUE / RENAME VALUE
ALTER TYPE et_mood ADD VALUE 'ok';
ALTER TYPE et_mood ADD VALUE IF NOT EXISTS 'ok';
ALTER TYPE et_mood ADD VALUE 'meh' BEFORE 'zzz';
ALTER TYPE et_mood ADD VALUE 'meh' BEFORE 'ok';
ALTER TYPE et_mood ADD VALUE 'great' AFTER 'happy';
ALTER TYPE et_mood ADD VALUE 'awful' BEFORE 'sad';
ALTER TYPE et_mood ADD VALUE 'ecstatic';
ALTER TYPE et_mood RENAME VALUE 'zz' TO 'y';
ALTER TYPE et_mood RENAME VALUE 'ok' TO 'sad';
ALTER TYPE et_mood RENAME VALUE 'ok' TO 'fine';
ALTER TYPE et_nosuch ADD VALUE 'x';
INSERT INTO et_t VALUES ('meh', 6), ('great', 7), ('awful', 8);
SELECT * FROM et_t ORDER BY m, n;
SELECT enumlabel, enumsortorder FROM pg_enum WHERE enumtypid = 'et_mood'::regtype ORDER BY enumsortorder;
SELECT enum_range(NULL::et_mood), enum_first(NULL::et_mood), enum_last('fine'::et_mood);
SELECT enum_range('meh'::et_mood, 'happy'), enum_range(NULL, 'fine'::et_mood), enum_range('great'::et_mood, NULL);
SELECT enum_cmp('sad'::et_mood, 'great'), enum_larger('sad'::et_mood, 'great'), enum_smaller('sad'::et_mood, 'great');
CREATE TYPE et_empty AS ENUM ();
SELECT enum_first(NULL::et_empty);
SELECT enum_range(NULL::et_empty);
-- arrays of enums
CREATE TABLE et_arr (a et_mood[]);
INSERT INTO et_arr VALUES ('{sad,happy}'), (ARRAY['meh'::et_mood]);
SELECT a, a[1] FROM et_arr ORDER BY a;
SELECT ARRAY['sad', 'fine']::et_mood[];
-- catalogs
SELECT typname, typtype, typcategory, typlen, typbyval, typelem <> 0 AS has_elem, typarray <> 0 AS has_array
  FROM pg_type WHERE typname IN ('et_mood', '_et_mood') ORDER BY typname;
SELECT format_type('et_mood'::regtype, NULL), format_type('et_mood[]'::regtype, NULL);
SELECT a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a
  WHERE a.attrelid = 'et_t'::regclass AND a.attnum > 0 ORDER BY a.attnum;
-- DROP TYPE
DROP TYPE et_mood;
DROP TYPE et_nosuch;
DROP TYPE IF EXISTS et_nosuch;
DROP TYPE int4;
DROP TABLE et_t;
DROP TYPE et_mood;
DROP TYPE et_mood CASCADE;
SELECT * FROM et_arr;
DROP TABLE et_arr;
DROP TYPE et_empty;
SELECT count(*) FROM pg_type WHERE typname IN ('et_mood', '_et_mood', 'et_empty');
