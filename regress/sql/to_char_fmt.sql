SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- to_char, to_number, to_date, to_timestamp (types/tochar*.go, types/tonumber.go)
CREATE TABLE tc_ts (id int, t timestamp);
INSERT INTO tc_ts VALUES
  (1, '2024-03-05 13:04:05.123456'), (2, '1999-12-31 23:59:59.999999'),
  (3, '2000-01-01 00:00:00'), (4, '2021-01-03 12:00:00.5'),
  (5, '0044-03-15 09:08:07 BC'), (6, '1582-10-04 01:02:03'),
  (7, '2020-02-29 00:30:00'), (8, '2008-12-29 11:11:11.011'),
  (9, '0001-01-01 00:00:00'), (10, '2010-01-03 18:45:00');
SELECT id, to_char(t, 'YYYY-MM-DD HH24:MI:SS.US') FROM tc_ts ORDER BY id;
SELECT id, to_char(t, 'DAY Day day DY Dy dy MONTH Month month RM rm MON Mon mon') FROM tc_ts ORDER BY id;
SELECT id, to_char(t, 'FMDAY FMDay FMday FMMONTH FMMonth FMmonth FMRM FMrm') FROM tc_ts ORDER BY id;
SELECT id, to_char(t, 'Y,YYY YYYY YYY YY Y CC Q MM WW W DDD DD D J') FROM tc_ts ORDER BY id;
SELECT id, to_char(t, 'FMY,YYY FMYYYY FMYYY FMYY FMY FMCC FMQ FMMM FMWW FMW FMDDD FMDD FMD FMJ') FROM tc_ts ORDER BY id;
SELECT id, to_char(t, 'IYYY IYY IY I IW IDDD ID FMIW FMIDDD') FROM tc_ts ORDER BY id;
SELECT id, to_char(t, 'HH HH12 HH24 MI SS SSSS SSSSS MS US FF1 FF2 FF3 FF4 FF5 FF6') FROM tc_ts ORDER BY id;
SELECT id, to_char(t, 'AM am PM pm A.M. a.m. P.M. p.m. AD ad BC bc A.D. a.d. B.C. b.c.') FROM tc_ts ORDER BY id;
SELECT id, to_char(t, 'DDTH DDth MMth HH24TH FMDDth FMMMTH YYYYth CCth Jth IWth Dth Qth') FROM tc_ts ORDER BY id;
SELECT id, to_char(t, 'TZ tz TZH:TZM OF FMOF') FROM tc_ts ORDER BY id;
SELECT id, to_char(t, 'TMDay TMMonth TMmon TMDY FMTMMonth DDSP') FROM tc_ts ORDER BY id;
SELECT id, to_char(t, E'"HH:MI is" HH:MI "\\"quoted\\"" \\"YYYY\\" YYYY\\\\MM') FROM tc_ts ORDER BY id;
SELECT id, to_char(t, 'HH24--text--MI--text--SS') FROM tc_ts ORDER BY id;
SELECT id, to_char(t, 'FXYYYY fmDD hh12:mi:ss pm éñ') FROM tc_ts ORDER BY id;
SELECT to_char(timestamp 'infinity', 'YYYY'), to_char(timestamp '2001-01-01', '') IS NULL AS empty_is_null;
SELECT to_char(NULL::timestamp, 'YYYY'), to_char(timestamp '2001-01-01', NULL);
-- timestamptz follows TimeZone
CREATE TABLE tc_tstz (id int, t timestamptz);
INSERT INTO tc_tstz VALUES (1, '2024-07-01 12:00:00+00'), (2, '2024-01-15 03:30:00+00'), (3, '1900-06-01 00:00:00+00');
SELECT id, to_char(t, 'YYYY-MM-DD HH24:MI:SS TZ tz TZH TZM OF') FROM tc_tstz ORDER BY id;
SET TimeZone = 'America/New_York';
SELECT id, to_char(t, 'YYYY-MM-DD HH24:MI:SS TZ tz TZH TZM OF') FROM tc_tstz ORDER BY id;
SET TimeZone = 'Asia/Kolkata';
SELECT id, to_char(t, 'YYYY-MM-DD HH24:MI:SS TZ TZH:TZM OF FMOF') FROM tc_tstz ORDER BY id;
SET TimeZone = '-04:15';
SELECT id, to_char(t, 'HH24:MI TZ TZH:TZM OF of tzh tzm') FROM tc_tstz ORDER BY id;
SET TimeZone = 'UTC';
-- a date goes through timestamptz
SELECT to_char(date '2024-02-29', 'FMDay, FMMonth DDth YYYY');
-- intervals
CREATE TABLE tc_iv (id int, i interval);
INSERT INTO tc_iv VALUES (1, '1 year 2 months 3 days 04:05:06.789'), (2, '-1 year -2 months'),
  (3, '36 hours 15 minutes'), (4, '0'), (5, '12 months'), (6, '-3 months -4 days -05:06:07'),
  (7, '250 years'), (8, '1000 hours');
SELECT id, to_char(i, 'YYYY Y,YYY YY Y CC MM DD DDD WW W HH HH12 HH24 MI SS MS US SSSS') FROM tc_iv ORDER BY id;
SELECT id, to_char(i, 'FMYYYY FMMM FMDD FMHH24 FMMI FMSS AM pm Q RM rm J') FROM tc_iv ORDER BY id;
SELECT to_char(interval '1 day', 'Day');
SELECT to_char(interval '1 day', 'TZ');
SELECT to_char(interval '1 month', 'MON');
SELECT to_char(interval '1 month', 'AD');
SELECT to_char(interval '1 month', 'D');
-- numbers
CREATE TABLE tc_num (id int, n numeric);
INSERT INTO tc_num VALUES (1, 0), (2, 1), (3, -1), (4, 0.5), (5, -0.5), (6, 12.345), (7, -12.345),
  (8, 1234.5678), (9, -1234.5678), (10, 99999.999), (11, 0.001), (12, 123456789), (13, 'NaN'),
  (14, 'Infinity'), (15, '-Infinity'), (16, 4.31), (17, 21), (18, 112), (19, 3999), (20, 4000);
SELECT id, to_char(n, '9999'), to_char(n, '0000'), to_char(n, 'FM9999'), to_char(n, '9999.99'),
  to_char(n, 'FM9999.99'), to_char(n, 'FM9999.00'), to_char(n, '0999.990') FROM tc_num ORDER BY id;
SELECT id, to_char(n, 'S9999.99'), to_char(n, '9999.99S'), to_char(n, 'FMS9999.99'), to_char(n, 'MI9999.99'),
  to_char(n, '9999.99MI'), to_char(n, 'PL9999.99'), to_char(n, 'SG9999.99'), to_char(n, '9999.99PR') FROM tc_num ORDER BY id;
SELECT id, to_char(n, '9,999,999.99'), to_char(n, 'FM9,999,999.99'), to_char(n, '9G999G999D99'),
  to_char(n, 'L9999.99'), to_char(n, 'FM99999th'), to_char(n, '999TH'), to_char(n, 'B9999.99') FROM tc_num ORDER BY id;
SELECT id, to_char(n, '9.99EEEE'), to_char(n, '9.9999EEEE'), to_char(n, '99V99'), to_char(n, 'FM9V999'),
  to_char(n, 'RN'), to_char(n, 'FMRN'), to_char(n, 'rn') FROM tc_num ORDER BY id;
SELECT id, to_char(n, '"Total:" 9999.99 "!"'), to_char(n, 'FM00009.9990'), to_char(n, '9990.0'), to_char(n, 'FM.999')
  FROM tc_num ORDER BY id;
CREATE TABLE tc_int (id int, i int4, b int8, f float8, r float4);
INSERT INTO tc_int VALUES (1, 0, 0, 0, 0), (2, 5, 5, 5.5, 5.5), (3, -42, -4567890123456789, -42.125, -42.125),
  (4, 2147483647, 9223372036854775807, 1e15, 1e7), (5, -2147483648, -9223372036854775808, 1.5e-5, 3.25e-3),
  (6, 1999, 1999, 'NaN', 'NaN'), (7, 11, 12, 'Infinity', '-Infinity'), (8, 123, 123456789012, 0.125, 1234567.5);
SELECT id, to_char(i, '9999999999'), to_char(i, 'FMS9999999999'), to_char(i, '999'), to_char(i, '9.99EEEE'),
  to_char(i, 'FM999th'), to_char(i, '99V99'), to_char(i, 'RN') FROM tc_int ORDER BY id;
SELECT id, to_char(b, '9999999999999999999'), to_char(b, 'FM9,999,999,999,999,999,999'), to_char(b, '9.999EEEE'),
  to_char(b, '999.99'), to_char(b, 'FM99999TH') FROM tc_int ORDER BY id;
SELECT id, to_char(f, '9999999999999999.999'), to_char(f, 'FM9999999999999999.999'), to_char(f, '9.999EEEE'),
  to_char(f, '999.99'), to_char(f, 'FM0.000000'), to_char(f, '99V9') FROM tc_int ORDER BY id;
SELECT id, to_char(r, '99999999.999'), to_char(r, 'FM99999999.999'), to_char(r, '9.999EEEE'), to_char(r, '999.99')
  FROM tc_int ORDER BY id;
SELECT to_char(1234::int, ''), to_char(12.5::numeric, NULL), to_char(4999::int8, 'RN');
SELECT to_char(3000000000::int8, 'RN');
-- template errors
SELECT to_char(1::numeric, '9.9.9');
SELECT to_char(1::numeric, 'S9S');
SELECT to_char(1::numeric, '99PR9');
SELECT to_char(1::numeric, 'FM9.9EEEE');
SELECT to_char(1::numeric, '9EEEE9');
SELECT to_char(1::numeric, '9V9.9');
SELECT to_char(1::numeric, 'MIS9');
-- to_number
SELECT to_number('-34,338,492', '99G999G999'), to_number('-34,338,492.654,878', '99G999G999D999G999'),
  to_number('<564646.654564>', '999999.999999PR'), to_number('0.00001-', '9.999999S'),
  to_number('5.01-', 'FM9.999999S'), to_number('5.01-', 'FM9.999999MI'),
  to_number('5 4 4 4 4 8 . 7 8', '9 9 9 9 9 9 . 9 9'), to_number('.01', 'FM9.99'),
  to_number('.0', '99999999.99999999'), to_number('0', '99.99'), to_number('.-01', 'S99.99'),
  to_number('.01-', '99.99S'), to_number(' . 0 1-', ' 9 9 . 9 9 S');
SELECT to_number('34,50','999,99'), to_number('123,000','999G'), to_number('123456','999G999'),
  to_number('$1234.56','L9,999.99'), to_number('$1234.56','L99,999.99'), to_number('$1,234.56','L99,999.99'),
  to_number('1234.56','L99,999.99'), to_number('1,234.56','L99,999.99'), to_number('42nd', '99th'),
  to_number('12345', '99V99'), to_number('1,2,3', '9,9,9'), to_number('+12.5', 'S99.9');
SELECT to_number('', '999'), to_number('123', ''), to_number(NULL, '999');
SELECT to_number('-', '9');
SELECT to_number('12345', '99');
SELECT to_number('1.5', '9.9EEEE');
SELECT to_number('XV', 'RN');
-- to_date / to_timestamp
SELECT to_date('2024-03-05', 'YYYY-MM-DD'), to_date('05 Mar 2024', 'DD Mon YYYY'), to_date('2024 065', 'YYYY DDD'),
  to_date('20240305', 'YYYYMMDD'), to_date('3/5/24', 'FMMM/FMDD/YY'), to_date('2024-W10-2', 'IYYY-"W"IW-ID'),
  to_date('2458849', 'J'), to_date('21 12', 'CC YY'), to_date('44 BC 03 15', 'YYYY BC MM DD'), to_date('1,999 12 31', 'Y,YYY MM DD');
SELECT to_timestamp('2024-03-05 13:04:05.123456', 'YYYY-MM-DD HH24:MI:SS.US'),
  to_timestamp('05 March 2024 1:04 PM', 'DD Month YYYY HH12:MI AM'),
  to_timestamp('2024-03-05 13:04:05 +05:30', 'YYYY-MM-DD HH24:MI:SS TZH:TZM'),
  to_timestamp('2024-03-05 13:04:05 -08', 'YYYY-MM-DD HH24:MI:SS TZH'),
  to_timestamp('2018-11-02 12:34:56.1234', 'YYYY-MM-DD HH24:MI:SS.FF2'),
  to_timestamp('12:34:56.025', 'HH24:MI:SS.MS'), to_timestamp('86399', 'SSSS'),
  to_timestamp('1997 xii 05', 'YYYY rm DD'), to_timestamp('Tuesday 2024-03-05', 'Day YYYY-MM-DD');
SELECT to_timestamp('2024-03-05', 'YYYY-MM-DD') AT TIME ZONE 'UTC';
SET TimeZone = 'America/New_York';
SELECT to_timestamp('2024-07-04 12:00', 'YYYY-MM-DD HH24:MI'), to_timestamp('2024-01-04 12:00', 'YYYY-MM-DD HH24:MI');
SET TimeZone = 'UTC';
SELECT to_date('2024-13-01', 'YYYY-MM-DD');
SELECT to_date('2024-02-30', 'YYYY-MM-DD');
SELECT to_date('2024-xx-01', 'YYYY-MM-DD');
SELECT to_date('2024 Mar 01', 'YYYY Mon DD') = to_date('2024 MAR 01', 'YYYY MON DD') AS case_insensitive;
SELECT to_date('2024 Foo 01', 'YYYY Mon DD');
SELECT to_date('2024-03-05 2024-W10', 'YYYY-MM-DD IYYY-"W"IW');
SELECT to_date('1 1', 'MM MM');
SELECT to_date('2024', 'YYYYY');
SELECT to_timestamp('13:00 PM', 'HH12:MI PM');
SELECT to_timestamp('2024-03-05 10', 'YYYY-MM-DD TZ');
SELECT to_timestamp('2024-03-05 +16', 'YYYY-MM-DD TZH');
SELECT to_timestamp('123', 'DDD');
SELECT to_timestamp('20240305', 'YYYYMMDDHH24');
SELECT to_timestamp('2024031', 'YYYYMMDD');
SELECT to_timestamp('99999999999', 'YYYY');
SELECT to_date('', 'YYYY'), to_timestamp('2024', '');
