CREATE TABLE enc (id int NOT NULL, k bigint, s smallint, d date, ts timestamp, m numeric(15,2), flag text, note text, f float8, b bool);
INSERT INTO enc SELECT g, 1000000000000 + g*3, (g % 300)::smallint, date '1992-01-01' + (g % 2500), timestamp '1995-06-01 00:00:00' + g * interval '1 minute',
  ((g * 37) % 100000) / 100.0, (array['A','N','R'])[1 + g % 3], 'note ' || md5(g::text), g / 7.0, g % 2 = 0
FROM generate_series(1, 3000) g;
INSERT INTO enc VALUES (3001, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), (3002, -9223372036854775808, -32768, '-infinity', 'infinity', -9999999999999.99, '', 'é ü', 'NaN', false);
