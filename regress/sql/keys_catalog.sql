SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- information_schema's constraint views.
CREATE TABLE kg_p (a int PRIMARY KEY, b int, c int NOT NULL, UNIQUE (b, c), CHECK (b > 0));
CREATE TABLE kg_c (x int REFERENCES kg_p ON DELETE CASCADE, y int, z int,
  FOREIGN KEY (z, y) REFERENCES kg_p (c, b) MATCH FULL DEFERRABLE, CONSTRAINT kg_c_chk CHECK (x IS NOT NULL OR y > 2));
SELECT constraint_name, table_name, constraint_type, is_deferrable, initially_deferred, enforced, nulls_distinct
  FROM information_schema.table_constraints WHERE table_name LIKE 'kg_%' AND constraint_name NOT LIKE '%not_null' ORDER BY constraint_name;
SELECT count(*) FROM information_schema.table_constraints WHERE table_name LIKE 'kg_%' AND constraint_name LIKE '%not_null';
SELECT constraint_name, table_name, column_name, ordinal_position, position_in_unique_constraint
  FROM information_schema.key_column_usage WHERE table_name LIKE 'kg_%' ORDER BY constraint_name, ordinal_position;
SELECT constraint_name, unique_constraint_name, match_option, update_rule, delete_rule
  FROM information_schema.referential_constraints WHERE constraint_name LIKE 'kg_%' ORDER BY constraint_name;
SELECT constraint_name, check_clause FROM information_schema.check_constraints WHERE constraint_name LIKE 'kg_%' ORDER BY constraint_name;
SELECT table_name, column_name, constraint_name FROM information_schema.constraint_column_usage
  WHERE constraint_name LIKE 'kg_%' ORDER BY constraint_name, column_name;
SELECT conname, contype, conkey, confkey, conrelid::regclass, confrelid::regclass, conindid <> 0 AS has_index
  FROM pg_constraint WHERE conrelid IN ('kg_p'::regclass, 'kg_c'::regclass) ORDER BY conname;
SELECT relname, relchecks, relhastriggers FROM pg_class WHERE relname LIKE 'kg_%' AND relkind = 'r' ORDER BY relname;
\d kg_c
DROP TABLE kg_c, kg_p;
