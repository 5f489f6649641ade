SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- network address types: inet, cidr, macaddr, macaddr8 as columns,
-- arrays, COPY, ordering, grouping, joins, indexes, casts and functions
CREATE TABLE net_hosts (id int, addr inet, net cidr, mac macaddr, mac8 macaddr8, aliases inet[]);
INSERT INTO net_hosts VALUES
  (1, '10.1.2.3', '10.1.0.0/16', '08:00:2b:01:02:03', '08:00:2b:01:02:03:04:05', '{10.1.2.4,10.1.2.5/24}'),
  (2, '10.1.2.3/8', '10.0.0.0/8', '08-00-2b-01-02-04', '08:00:2b:01:02:03', NULL),
  (3, '192.168.1.10/24', '192.168.1.0/24', '0800.2b01.0205', NULL, '{}'),
  (4, '::1', '::/0', NULL, '00:00:00:00:00:00:00:01', '{::1,NULL}'),
  (5, '2001:db8::abcd/64', '2001:db8::/32', '00:00:00:00:00:00', '02:00:5e:ff:fe:00:53:01', '{2001:db8::1}'),
  (6, '::ffff:10.1.2.3', '10', 'ff:ff:ff:ff:ff:ff', 'ff:ff:ff:ff:ff:ff:ff:ff', NULL),
  (7, NULL, NULL, NULL, NULL, NULL),
  (8, '10.1.2.3', '10.1.2.3/32', '08:00:2b:01:02:03', '08002b0102030405', '{10.1.2.3}');
SELECT * FROM net_hosts ORDER BY id;
SELECT id, addr FROM net_hosts ORDER BY addr, id;
SELECT id, net FROM net_hosts ORDER BY net DESC NULLS LAST, id;
SELECT id, mac, mac8 FROM net_hosts ORDER BY mac, mac8, id;
SELECT addr, count(*) FROM net_hosts GROUP BY addr ORDER BY addr;
SELECT DISTINCT mac FROM net_hosts ORDER BY 1;
SELECT min(addr), max(addr), min(net), max(net) FROM net_hosts;
SELECT family(addr), count(*), min(addr) FROM net_hosts GROUP BY 1 ORDER BY 1;
-- containment and joins
SELECT h.id, h.addr, n.id AS in_net, n.net FROM net_hosts h JOIN net_hosts n ON h.addr << n.net ORDER BY 1, 3;
SELECT a.id, b.id FROM net_hosts a JOIN net_hosts b ON a.addr = b.addr AND a.id < b.id ORDER BY 1, 2;
SELECT a.id, b.id FROM net_hosts a JOIN net_hosts b ON a.mac = b.mac AND a.id < b.id ORDER BY 1, 2;
SELECT id FROM net_hosts WHERE addr <<= '10.0.0.0/8' ORDER BY id;
SELECT id FROM net_hosts WHERE net >>= '10.1.2.3' ORDER BY id;
SELECT id FROM net_hosts WHERE addr && '10.1.0.0/16'::cidr ORDER BY id;
SELECT id FROM net_hosts WHERE addr IN ('10.1.2.3', '::1') ORDER BY id;
SELECT id FROM net_hosts WHERE mac8 = '08:00:2b:01:02:03' ORDER BY id;
CREATE INDEX net_hosts_addr ON net_hosts (addr);
CREATE INDEX net_hosts_mac ON net_hosts USING hash (mac);
SELECT id FROM net_hosts WHERE addr = '10.1.2.3' ORDER BY id;
SELECT id FROM net_hosts WHERE addr > '10.1.2.3' AND addr < '::' ORDER BY id;
SELECT id FROM net_hosts WHERE mac = '08:00:2b:01:02:03' ORDER BY id;
-- functions
SELECT id, abbrev(addr), abbrev(net), host(addr), text(addr), masklen(addr), family(addr) FROM net_hosts ORDER BY id;
SELECT id, broadcast(addr), network(addr), netmask(addr), hostmask(addr) FROM net_hosts ORDER BY id;
SELECT id, set_masklen(addr, 16), set_masklen(net, 8) FROM net_hosts WHERE family(addr) = 4 ORDER BY id;
SELECT a.id, b.id, inet_same_family(a.addr, b.addr), inet_merge(a.addr, b.addr)
  FROM net_hosts a, net_hosts b WHERE a.id < b.id AND inet_same_family(a.addr, b.addr) ORDER BY 1, 2;
SELECT id, ~addr, addr & '0.0.255.255', addr | '0.0.0.255', addr + 1, addr - 1, addr - '10.0.0.0'
  FROM net_hosts WHERE family(addr) = 4 ORDER BY id;
SELECT id, trunc(mac), ~mac, mac & '00:00:00:ff:ff:ff', mac | '01:00:00:00:00:00' FROM net_hosts ORDER BY id;
SELECT id, trunc(mac8), macaddr8_set7bit(mac8), mac8 & 'ff:ff:ff:00:00:00:00:00' FROM net_hosts ORDER BY id;
SELECT inet_merge('10.1.2.3', '::1');
SELECT set_masklen('10.1.2.3'::inet, 33);
SELECT '10.1.2.3'::inet & '::1';
SELECT '255.255.255.255'::inet + 1;
SELECT '::'::inet - '::ffff:ffff:ffff:ffff:ffff'::inet;
-- casts
SELECT id, addr::cidr, addr::text, net::inet, net::text, addr::varchar(12), mac::macaddr8, mac::text FROM net_hosts ORDER BY id;
SELECT mac8::macaddr FROM net_hosts WHERE id = 1;
SELECT id, mac8::macaddr FROM net_hosts WHERE id IN (2, 5) ORDER BY id;
SELECT cidr('10.1.2.0/24'), cidr('10.1.2.3/24'::inet), inet('10.1.2.3/24'), text('10.1.2.3'::inet), text('abc');
SELECT '10.1.2.3/24'::cidr;
SELECT '10.1.2.300'::inet;
SELECT '08:00:2b:01:02:300'::macaddr;
SELECT 'not a mac'::macaddr8;
SELECT pg_typeof(addr), pg_typeof(net), pg_typeof(mac), pg_typeof(mac8), pg_typeof(aliases),
       pg_typeof(net + 1), pg_typeof(network(addr)) FROM net_hosts LIMIT 1;
-- arrays
SELECT id, aliases, aliases[1], array_length(aliases, 1) FROM net_hosts ORDER BY id;
SELECT '{10.1.2.3/8, ::1}'::inet[], '{10.0.0.0/8}'::cidr[], '{08:00:2b:01:02:03}'::macaddr[], '{08:00:2b:01:02:03}'::macaddr8[];
SELECT array_agg(addr ORDER BY addr) FROM net_hosts;
-- COPY both ways
CREATE TABLE net_copy (addr inet, net cidr, mac macaddr, mac8 macaddr8);
COPY net_copy FROM stdin;
10.0.0.1/8	10.0.0.0/8	08:00:2b:01:02:03	08:00:2b:01:02:03:04:05
::ffff:1.2.3.4	::ffff:1.2.3.0/120	0800.2b01.0203	0800.2b01.0203.0405
\N	\N	\N	\N
\.
COPY net_copy TO stdout;
COPY net_copy TO stdout (FORMAT csv);
COPY net_copy FROM stdin;
10.0.0.1	10.0.0.1/8	08:00:2b:01:02:03	08:00:2b:01:02:03:04:05
\.
-- catalog
SELECT oid, typname, typlen, typcategory, typispreferred, typarray FROM pg_type
  WHERE typname IN ('inet', 'cidr', 'macaddr', 'macaddr8', '_inet', '_cidr', '_macaddr', '_macaddr8') ORDER BY oid;
SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'net_hosts'::regclass AND attnum > 0 ORDER BY attnum;
DROP TABLE net_hosts, net_copy;
