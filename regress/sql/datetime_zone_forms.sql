-- Numeric time zones as DecodeTimezone reads them (make_timestamptz's
-- argument; datetime input, whose tokenizer wants a digit first) and
-- extract's timezone_h / timezone_m abbreviations.
SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
WITH tzs (tz) AS (VALUES ('+1'), ('+1:'), ('+1:0'), ('+100'), ('+1:00'), ('+01:00'), ('+10'), ('+1000'), ('+10:'), ('+10:0'), ('+10:00'), ('+10:00:'), ('+10:00:1'), ('+10:00:01'), ('+10:00:10'), ('+1::'), ('-1:0:')) SELECT make_timestamptz(2010, 2, 27, 3, 45, 00, tz), tz FROM tzs;
select make_timestamptz(2010,2,27,3,45,0,'+:30');
select make_timestamptz(2010,2,27,3,45,0,'+1:::');
select '2010-01-01 00:00 +1:'::timestamptz, '2010-01-01 00:00 +10:00:'::timestamptz, '2010-01-01 00:00 -1::'::timestamptz;
select '10:00 +1:'::timetz;
select '2010-01-01 00:00 +1:::'::timestamptz;
select extract(timezone_h from timestamptz '2020-01-01 00:00+03'), extract(timezone_m from timestamptz '2020-01-01 00:00+03'), date_part('timezone_m', now());
SELECT EXTRACT(TIMEZONE_M FROM DATE '2020-08-11');
SELECT EXTRACT(TIMEZONE_H FROM time '10:00');
SELECT EXTRACT(TIMEZONE_H FROM timetz '10:00+05:30'), EXTRACT(TIMEZONE_M FROM timetz '10:00+05:30');
SELECT EXTRACT(TIMEZONE_M FROM interval '1 day');
select make_timestamptz(2010,2,27,3,45,0,'+');
select make_timestamptz(2010,2,27,3,45,0,'-');
select '2010-01-01 00:00 +:30'::timestamptz;
select '2010-01-01 00:00+'::timestamptz;
select '2010-01-01 00:00 +'::timestamptz;
select '10:00+'::timetz;
select '10:00 +:30'::timetz;
