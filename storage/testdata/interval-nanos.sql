CREATE TABLE iv (id int NOT NULL, v interval, w interval);
INSERT INTO iv SELECT g, g * interval '1 minute 0.000001 sec' - interval '3 days', make_interval(months => g % 40, days => g % 9, secs => g / 1000.0) FROM generate_series(1, 3000) g;
CREATE TABLE checkpoint_marker (x int);
INSERT INTO iv VALUES (3001, NULL, interval '2562047 hours 47 minutes 16.854775 seconds'), (3002, interval '-2562047 hours -47 minutes -16.854775 seconds', interval '-178956970 years -7 months -2147483648 days'), (3003, interval '1 day -00:00:00.000001', interval '0');
