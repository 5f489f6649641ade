import java.sql.*;
import java.util.*;

// Replays the pgjdbc DatabaseMetaData and ResultSetMetaData calls BI tools
// make (DBeaver, Metabase, Tableau's JDBC path) on a small schema with a
// primary key, UNIQUE, FOREIGN KEY, CHECK, indexes, comments and a view.
// Each call prints "CALL<TAB>method" then "COLS<TAB>name<TAB>..." and one
// "ROW<TAB>v<TAB>..." per row, or "ERR<TAB>SQLSTATE<TAB>message". The Go
// test (jdbcmeta_test.go) runs it on PostgreSQL 15 and joind in the same
// run and compares the answers column by column.
public class JdbcMetaCheck {
    static void print(String method, ResultSet rs) throws SQLException {
        ResultSetMetaData m = rs.getMetaData();
        StringBuilder sb = new StringBuilder("COLS");
        for (int k = 1; k <= m.getColumnCount(); k++) {
            sb.append('\t').append(m.getColumnLabel(k));
        }
        System.out.println(sb);
        while (rs.next()) {
            sb = new StringBuilder("ROW");
            for (int k = 1; k <= m.getColumnCount(); k++) {
                String v = rs.getString(k);
                sb.append('\t').append(v == null ? "NULL" : v.replace("\t", "\\t").replace("\n", "\\n"));
            }
            System.out.println(sb);
        }
        rs.close();
    }

    interface Call {
        Object run() throws SQLException;
    }

    static void call(Connection c, String method, Call f) throws SQLException {
        System.out.println("CALL\t" + method);
        try {
            Object r = f.run();
            if (r instanceof ResultSet) {
                print(method, (ResultSet) r);
            } else {
                System.out.println("COLS\tvalue");
                System.out.println("ROW\t" + r);
            }
        } catch (SQLException e) {
            System.out.println("ERR\t" + e.getSQLState() + "\t" + e.getMessage().replace("\n", " "));
            if (!c.getAutoCommit()) {
                c.rollback();
            }
        }
    }

    // rsmd prints the ResultSetMetaData of a query's columns as a result set.
    static void rsmd(Connection c, String method, String sql) throws SQLException {
        System.out.println("CALL\t" + method);
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            ResultSetMetaData m = rs.getMetaData();
            System.out.println("COLS\tlabel\tname\ttypeName\ttype\tisNullable\ttableName\tschemaName\tcatalogName"
                + "\tprecision\tscale\tdisplaySize\tautoIncrement\tcaseSensitive\tsigned\tclassName\tbaseColumn\tbaseTable");
            for (int k = 1; k <= m.getColumnCount(); k++) {
                org.postgresql.PGResultSetMetaData pm = m.unwrap(org.postgresql.PGResultSetMetaData.class);
                System.out.println("ROW\t" + m.getColumnLabel(k) + "\t" + m.getColumnName(k) + "\t" + m.getColumnTypeName(k)
                    + "\t" + m.getColumnType(k) + "\t" + m.isNullable(k) + "\t" + m.getTableName(k) + "\t" + m.getSchemaName(k)
                    + "\t" + m.getCatalogName(k) + "\t" + m.getPrecision(k) + "\t" + m.getScale(k) + "\t" + m.getColumnDisplaySize(k)
                    + "\t" + m.isAutoIncrement(k) + "\t" + m.isCaseSensitive(k) + "\t" + m.isSigned(k) + "\t" + m.getColumnClassName(k)
                    + "\t" + pm.getBaseColumnName(k) + "\t" + pm.getBaseTableName(k));
            }
        } catch (SQLException e) {
            System.out.println("ERR\t" + e.getSQLState() + "\t" + e.getMessage().replace("\n", " "));
        }
    }

    public static void main(String[] args) throws Exception {
        try (Connection c = DriverManager.getConnection(args[0], "postgres", "")) {
            Statement st = c.createStatement();
            for (String s : new String[] {
                "drop view if exists jm_v",
                "drop table if exists jm_line",
                "drop table if exists jm_order",
                "drop table if exists jm_cust",
                "create table jm_cust (id int primary key, email varchar(80) not null unique, name text, "
                    + "score numeric(8,2) check (score >= 0), created date default current_date)",
                "create table jm_order (oid int, cust_id int not null references jm_cust (id), placed timestamp, "
                    + "total numeric(10,2), note text, constraint jm_order_pk primary key (oid))",
                "create table jm_line (order_id int references jm_order (oid) on delete cascade, line int, "
                    + "qty int not null, sku char(8), primary key (order_id, line), unique (sku, order_id))",
                "create index jm_order_placed on jm_order (placed)",
                "create index jm_cust_name_score on jm_cust (name, score)",
                "comment on table jm_cust is 'customers'",
                "comment on column jm_cust.email is 'login address'",
                "create view jm_v as select o.oid, c.name, o.total from jm_order o join jm_cust c on c.id = o.cust_id",
                "comment on view jm_v is 'orders with names'",
            }) {
                st.execute(s);
            }
            DatabaseMetaData md = c.getMetaData();
            String cat = c.getCatalog();

            call(c, "getTables(public, jm%)", () -> md.getTables(cat, "public", "jm%", null));
            call(c, "getTables(public, jm%, TABLE)", () -> md.getTables(cat, "public", "jm%", new String[] {"TABLE"}));
            call(c, "getTables(public, jm%, VIEW)", () -> md.getTables(cat, "public", "jm%", new String[] {"VIEW"}));
            for (String t : new String[] {"jm_cust", "jm_order", "jm_line", "jm_v"}) {
                call(c, "getColumns(" + t + ")", () -> md.getColumns(cat, "public", t, "%"));
            }
            for (String t : new String[] {"jm_cust", "jm_order", "jm_line", "jm_v"}) {
                call(c, "getPrimaryKeys(" + t + ")", () -> md.getPrimaryKeys(cat, "public", t));
            }
            for (String t : new String[] {"jm_cust", "jm_order", "jm_line"}) {
                call(c, "getIndexInfo(" + t + ")", () -> md.getIndexInfo(cat, "public", t, false, true));
                call(c, "getIndexInfo(" + t + ", unique)", () -> md.getIndexInfo(cat, "public", t, true, true));
            }
            for (String t : new String[] {"jm_cust", "jm_order", "jm_line"}) {
                call(c, "getImportedKeys(" + t + ")", () -> md.getImportedKeys(cat, "public", t));
                call(c, "getExportedKeys(" + t + ")", () -> md.getExportedKeys(cat, "public", t));
            }
            call(c, "getCrossReference(jm_cust, jm_order)",
                () -> md.getCrossReference(cat, "public", "jm_cust", cat, "public", "jm_order"));
            for (String t : new String[] {"jm_cust", "jm_line"}) {
                call(c, "getBestRowIdentifier(" + t + ")",
                    () -> md.getBestRowIdentifier(cat, "public", t, DatabaseMetaData.bestRowSession, true));
            }
            call(c, "getVersionColumns(jm_cust)", () -> md.getVersionColumns(cat, "public", "jm_cust"));
            call(c, "getTypeInfo", md::getTypeInfo);
            call(c, "getFunctions(pg_catalog, lower)", () -> md.getFunctions(cat, "pg_catalog", "lower"));
            call(c, "getFunctions(pg_catalog, char_length)", () -> md.getFunctions(cat, "pg_catalog", "char_length"));
            call(c, "getFunctions(public, %)", () -> md.getFunctions(cat, "public", "%"));
            call(c, "getProcedures(public, %)", () -> md.getProcedures(cat, "public", "%"));
            call(c, "getSchemas", md::getSchemas);
            call(c, "getSchemas(null, pub%)", () -> md.getSchemas(null, "pub%"));
            call(c, "getTableTypes", md::getTableTypes);
            // Other tests' databases share the PostgreSQL cluster: only
            // the ones every cluster has and this test's own are printed.
            call(c, "getCatalogs", () -> {
                StringBuilder sb = new StringBuilder();
                try (ResultSet rs = md.getCatalogs()) {
                    while (rs.next()) {
                        String d = rs.getString(1);
                        if (d.equals("postgres") || d.equals("template1") || d.equals(cat)) {
                            sb.append(d).append(' ');
                        }
                    }
                }
                return sb.toString().trim();
            });
            call(c, "getUDTs(public)", () -> md.getUDTs(cat, "public", "%", null));
            call(c, "getColumnPrivileges(jm_cust)", () -> md.getColumnPrivileges(cat, "public", "jm_cust", "id"));
            call(c, "getClientInfoProperties", md::getClientInfoProperties);

            call(c, "getMaxColumnNameLength", md::getMaxColumnNameLength);
            call(c, "getMaxTableNameLength", md::getMaxTableNameLength);
            call(c, "getMaxSchemaNameLength", md::getMaxSchemaNameLength);
            call(c, "getMaxCatalogNameLength", md::getMaxCatalogNameLength);
            call(c, "getMaxProcedureNameLength", md::getMaxProcedureNameLength);
            call(c, "getMaxCursorNameLength", md::getMaxCursorNameLength);
            call(c, "getMaxUserNameLength", md::getMaxUserNameLength);
            call(c, "getMaxColumnsInIndex", md::getMaxColumnsInIndex);
            call(c, "getMaxColumnsInTable", md::getMaxColumnsInTable);
            call(c, "getMaxIndexLength", md::getMaxIndexLength);
            call(c, "getMaxRowSize", md::getMaxRowSize);
            call(c, "getMaxStatementLength", md::getMaxStatementLength);
            call(c, "getMaxCharLiteralLength", md::getMaxCharLiteralLength);
            call(c, "getMaxBinaryLiteralLength", md::getMaxBinaryLiteralLength);
            call(c, "getDatabaseProductName", md::getDatabaseProductName);
            call(c, "getDatabaseMajorVersion", md::getDatabaseMajorVersion);
            call(c, "getIdentifierQuoteString", md::getIdentifierQuoteString);
            call(c, "getSQLKeywords", md::getSQLKeywords);
            call(c, "getNumericFunctions", md::getNumericFunctions);
            call(c, "getStringFunctions", md::getStringFunctions);
            call(c, "getSystemFunctions", md::getSystemFunctions);
            call(c, "getTimeDateFunctions", md::getTimeDateFunctions);
            call(c, "getUserName", md::getUserName);
            call(c, "getDefaultTransactionIsolation", md::getDefaultTransactionIsolation);
            call(c, "supportsTransactions", md::supportsTransactions);
            call(c, "getSchema", c::getSchema);

            rsmd(c, "ResultSetMetaData(table)", "select * from jm_cust");
            rsmd(c, "ResultSetMetaData(view)", "select * from jm_v");
            rsmd(c, "ResultSetMetaData(left join)",
                "select c.id, c.email, o.oid, o.cust_id, o.total from jm_cust c left join jm_order o on o.cust_id = c.id");
            rsmd(c, "ResultSetMetaData(expressions)",
                "select id + 1 as next, upper(email) as up, count(*) over () as n, 42 as k, 'x'::varchar(3) as v, "
                    + "score::float8 as f, coalesce(name, '') as nm from jm_cust");
            rsmd(c, "ResultSetMetaData(aggregate)", "select cust_id, sum(total), max(placed) from jm_order group by cust_id");
        }
    }
}
