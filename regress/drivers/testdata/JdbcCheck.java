import java.math.BigDecimal;
import java.sql.*;

// Exercises pgjdbc against joind: connect, parameters of every type,
// server-prepared statements (prepareThreshold), batches, metadata,
// transactions and errors. Prints one line per check; the Go test compares
// the output with testdata/jdbc.out.
public class JdbcCheck {
    public static void main(String[] args) throws Exception {
        String url = args[0];
        try (Connection c = DriverManager.getConnection(url, "jdbc", "")) {
            Statement st = c.createStatement();
            st.execute("drop table if exists jt");
            st.execute("create table jt (i2 smallint, i4 int, i8 bigint, f4 real, f8 double precision, b boolean, " +
                "t text, v varchar(20), ch char(4), n numeric(10,3), d date, ts timestamp, iv interval)");
            System.out.println("isolation " + c.getTransactionIsolation());
            System.out.println("schema " + c.getSchema());
            System.out.println("catalog " + c.getCatalog());
            DatabaseMetaData md = c.getMetaData();
            System.out.println("product " + md.getDatabaseProductName() + " " + md.getDatabaseMajorVersion());

            // Every type as a parameter; after prepareThreshold (5) uses the
            // statement is server-prepared and pgjdbc switches to binary.
            PreparedStatement ins = c.prepareStatement("insert into jt values (?,?,?,?,?,?,?,?,?,?,?,?,?::interval)");
            for (int i = 0; i < 8; i++) {
                ins.setShort(1, (short) (i - 3));
                ins.setInt(2, i * 1000);
                ins.setLong(3, (long) i << 40);
                ins.setFloat(4, i + 0.5f);
                ins.setDouble(5, i / 4.0);
                ins.setBoolean(6, i % 2 == 0);
                ins.setString(7, "row " + i);
                ins.setString(8, "v" + i);
                ins.setString(9, "c" + i);
                ins.setBigDecimal(10, new BigDecimal("-12.5").add(BigDecimal.valueOf(i)));
                ins.setDate(11, Date.valueOf("2024-01-0" + (i + 1)));
                ins.setTimestamp(12, Timestamp.valueOf("2024-03-04 05:06:07.89"));
                ins.setString(13, i + " days 02:00:00");
                if (i == 7) {
                    ins.setNull(7, Types.VARCHAR);
                    ins.setNull(10, Types.NUMERIC);
                }
                ins.executeUpdate();
            }
            PreparedStatement q = c.prepareStatement("select i2, i4, i8, f4, f8, b, t, v, ch, n, d, ts, iv from jt where i4 >= ? and t is distinct from ? order by i4");
            for (int rep = 0; rep < 6; rep++) {
                q.setInt(1, 5000);
                q.setString(2, "row 6");
                try (ResultSet rs = q.executeQuery()) {
                    StringBuilder sb = new StringBuilder();
                    while (rs.next()) {
                        for (int k = 1; k <= 13; k++) {
                            sb.append(k > 1 ? "|" : "").append(rs.getString(k));
                        }
                        sb.append(";");
                    }
                    if (rep == 0 || rep == 5) {
                        System.out.println("rows " + rep + " " + sb);
                    }
                }
            }
            try (ResultSet rs = q.executeQuery()) {
                ResultSetMetaData m = rs.getMetaData();
                StringBuilder sb = new StringBuilder();
                for (int k = 1; k <= m.getColumnCount(); k++) {
                    // interval is not in pgjdbc's built-in type table: its
                    // name and SQL type come from pg_type/pg_namespace.
                    String tn = m.getColumnTypeName(k);
                    sb.append(m.getColumnName(k)).append(":").append(tn).append(":").append(m.getColumnType(k))
                      .append(":").append(m.isNullable(k)).append(" ");
                }
                System.out.println("meta " + sb.toString().trim());
            }
            // Catalog metadata: tables and columns as getTables/getColumns see them.
            try (ResultSet rs = md.getTables(c.getCatalog(), "public", "jt", new String[] {"TABLE"})) {
                while (rs.next()) {
                    System.out.println("table " + rs.getString("TABLE_CAT") + " " + rs.getString("TABLE_SCHEM") + " "
                        + rs.getString("TABLE_NAME") + " " + rs.getString("TABLE_TYPE"));
                }
            }
            try (ResultSet rs = md.getColumns(c.getCatalog(), "public", "jt", "%")) {
                StringBuilder sb = new StringBuilder();
                while (rs.next()) {
                    sb.append(rs.getString("COLUMN_NAME")).append(":").append(rs.getInt("DATA_TYPE")).append(":")
                      .append(rs.getString("TYPE_NAME")).append(":").append(rs.getInt("COLUMN_SIZE")).append(":")
                      .append(rs.getInt("NULLABLE")).append(":").append(rs.getInt("ORDINAL_POSITION")).append(" ");
                }
                System.out.println("columns " + sb.toString().trim());
            }
            try (ResultSet rs = md.getSchemas()) {
                StringBuilder sb = new StringBuilder();
                while (rs.next()) {
                    sb.append(rs.getString(1)).append(" ");
                }
                System.out.println("schemas " + sb.toString().trim());
            }

            PreparedStatement typed = c.prepareStatement("select ?::numeric + 1, ?::date, ?::timestamp, ? + 1");
            typed.setBigDecimal(1, new BigDecimal("1.25"));
            typed.setDate(2, Date.valueOf("2000-02-29"));
            typed.setTimestamp(3, Timestamp.valueOf("1999-12-31 23:59:59.5"));
            typed.setInt(4, 41);
            try (ResultSet rs = typed.executeQuery()) {
                rs.next();
                System.out.println("typed " + rs.getBigDecimal(1) + " " + rs.getDate(2) + " " + rs.getTimestamp(3) + " " + rs.getInt(4));
            }

            // Batches.
            PreparedStatement b = c.prepareStatement("insert into jt (i4, t) values (?, ?)");
            for (int i = 0; i < 100; i++) {
                b.setInt(1, 100000 + i);
                b.setString(2, "batch");
                b.addBatch();
            }
            int[] counts = b.executeBatch();
            System.out.println("batch " + counts.length + " " + counts[0] + " " + counts[99]);

            // Transactions and errors.
            c.setAutoCommit(false);
            st.execute("set application_name = 'inblock'");
            try {
                st.executeQuery("select 1/0");
            } catch (SQLException e) {
                System.out.println("error " + e.getSQLState() + " " + e.getMessage());
            }
            try {
                st.executeQuery("select 1");
            } catch (SQLException e) {
                System.out.println("aborted " + e.getSQLState());
            }
            c.rollback();
            c.setAutoCommit(true);
            try (ResultSet rs = st.executeQuery("show application_name")) {
                rs.next();
                System.out.println("application_name after rollback " + rs.getString(1));
            }
            try (ResultSet rs = st.executeQuery("select count(*), sum(i4) from jt")) {
                rs.next();
                System.out.println("total " + rs.getLong(1) + " " + rs.getLong(2));
            }
            // The network types arrive as PGobject text; after prepareThreshold
            // uses the statement is server-prepared.
            PreparedStatement nq = c.prepareStatement("select ?::inet, ?::cidr, ?::macaddr, ?::macaddr8, host(?::inet)");
            for (int rep = 0; rep < 6; rep++) {
                nq.setString(1, "10.1.2.3/8");
                nq.setString(2, "2001:db8::/32");
                nq.setString(3, "08-00-2b-01-02-03");
                nq.setString(4, "08:00:2b:01:02:03");
                nq.setString(5, "::ffff:1.2.3.4");
                try (ResultSet rs = nq.executeQuery()) {
                    rs.next();
                    if (rep == 0 || rep == 5) {
                        System.out.println("network " + rep + " " + rs.getString(1) + "|" + rs.getString(2) + "|" + rs.getString(3) + "|"
                            + rs.getString(4) + "|" + rs.getString(5) + " " + rs.getObject(1).getClass().getName() + " "
                            + rs.getMetaData().getColumnTypeName(1) + " " + rs.getMetaData().getColumnTypeName(3));
                    }
                }
            }
            // Fetch in chunks through a portal (fetch size needs autocommit off).
            c.setAutoCommit(false);
            Statement fs = c.createStatement();
            fs.setFetchSize(7);
            int n = 0;
            try (ResultSet rs = fs.executeQuery("select i4 from jt order by i4")) {
                while (rs.next()) n++;
            }
            c.commit();
            System.out.println("fetched " + n);
        }
    }
}
