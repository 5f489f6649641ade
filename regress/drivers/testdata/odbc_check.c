/* Exercises psqlODBC through unixODBC: connect with a DSN, prepared
 * statements with bound parameters of several types, fetch, errors.
 * Prints one line per check; the Go test compares with odbc.out. */
#include <sql.h>
#include <sqlext.h>
#include <stdio.h>
#include <string.h>

static SQLHDBC dbc;

static void diag(const char *what, SQLSMALLINT type, SQLHANDLE h) {
	SQLCHAR state[6], msg[512];
	SQLINTEGER native;
	SQLSMALLINT len;
	if (SQLGetDiagRec(type, h, 1, state, &native, msg, sizeof msg, &len) == SQL_SUCCESS)
		printf("%s error %s %s\n", what, state, msg);
	else
		printf("%s error (no diagnostics)\n", what);
}

static int check(SQLRETURN rc, const char *what, SQLSMALLINT type, SQLHANDLE h) {
	if (SQL_SUCCEEDED(rc)) return 1;
	diag(what, type, h);
	return 0;
}

static void direct(const char *sql) {
	SQLHSTMT st;
	SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
	check(SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS), sql, SQL_HANDLE_STMT, st);
	SQLFreeHandle(SQL_HANDLE_STMT, st);
}

static void dump(SQLHSTMT st, const char *label) {
	SQLSMALLINT ncol;
	SQLNumResultCols(st, &ncol);
	while (SQL_SUCCEEDED(SQLFetch(st))) {
		printf("%s", label);
		for (int i = 1; i <= ncol; i++) {
			char buf[256];
			SQLLEN ind;
			SQLGetData(st, i, SQL_C_CHAR, buf, sizeof buf, &ind);
			printf("%s%s", i > 1 ? "|" : " ", ind == SQL_NULL_DATA ? "NULL" : buf);
		}
		printf("\n");
	}
	SQLCloseCursor(st);
}

int main(int argc, char **argv) {
	SQLHENV env;
	SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &env);
	SQLSetEnvAttr(env, SQL_ATTR_ODBC_VERSION, (void *)SQL_OV_ODBC3, 0);
	SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc);
	if (!check(SQLDriverConnect(dbc, NULL, (SQLCHAR *)argv[1], SQL_NTS, NULL, 0, NULL, SQL_DRIVER_NOPROMPT),
			"connect", SQL_HANDLE_DBC, dbc))
		return 1;
	printf("connected\n");
	direct("drop table if exists od");
	direct("create table od (id int, name varchar(20), amount numeric(9,2), day date, at timestamp, f float8)");

	SQLHSTMT st;
	SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
	check(SQLPrepare(st, (SQLCHAR *)"insert into od values (?, ?, ?, ?, ?, ?)", SQL_NTS), "prepare", SQL_HANDLE_STMT, st);
	SQLINTEGER id;
	char name[21], amount[16];
	SQL_DATE_STRUCT day;
	SQL_TIMESTAMP_STRUCT at;
	double f;
	SQLLEN nameInd, amountInd = SQL_NTS, ind = 0;
	SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, &id, 0, &ind);
	SQLBindParameter(st, 2, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_VARCHAR, 20, 0, name, sizeof name, &nameInd);
	SQLBindParameter(st, 3, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_NUMERIC, 9, 2, amount, sizeof amount, &amountInd);
	SQLBindParameter(st, 4, SQL_PARAM_INPUT, SQL_C_TYPE_DATE, SQL_TYPE_DATE, 0, 0, &day, 0, &ind);
	SQLBindParameter(st, 5, SQL_PARAM_INPUT, SQL_C_TYPE_TIMESTAMP, SQL_TYPE_TIMESTAMP, 26, 6, &at, 0, &ind);
	SQLBindParameter(st, 6, SQL_PARAM_INPUT, SQL_C_DOUBLE, SQL_DOUBLE, 0, 0, &f, 0, &ind);
	for (int i = 1; i <= 4; i++) {
		id = i;
		snprintf(name, sizeof name, "n'%d", i);
		nameInd = i == 3 ? SQL_NULL_DATA : SQL_NTS;
		snprintf(amount, sizeof amount, "%d.25", i * 100);
		day.year = 2024; day.month = 2; day.day = 26 + i;
		memset(&at, 0, sizeof at);
		at.year = 2023; at.month = 12; at.day = 31; at.hour = 23; at.minute = 59; at.second = i; at.fraction = 500000000;
		f = i / 8.0;
		check(SQLExecute(st), "execute", SQL_HANDLE_STMT, st);
	}
	SQLFreeHandle(SQL_HANDLE_STMT, st);

	SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
	check(SQLPrepare(st, (SQLCHAR *)"select id, name, amount, day, at, f from od where id > ? order by id", SQL_NTS),
		"prepare select", SQL_HANDLE_STMT, st);
	SQLINTEGER lo = 1;
	SQLBindParameter(st, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, &lo, 0, &ind);
	SQLSMALLINT ncol;
	if (check(SQLExecute(st), "select", SQL_HANDLE_STMT, st)) {
		SQLNumResultCols(st, &ncol);
		printf("columns %d\n", ncol);
		for (int i = 1; i <= ncol; i++) {
			SQLCHAR cname[64];
			SQLSMALLINT nlen, dtype, digits, nullable;
			SQLULEN size;
			SQLDescribeCol(st, i, cname, sizeof cname, &nlen, &dtype, &size, &digits, &nullable);
			printf("column %s type %d\n", cname, dtype);
		}
		dump(st, "row");
	}
	lo = 2;
	if (check(SQLExecute(st), "select again", SQL_HANDLE_STMT, st)) dump(st, "again");
	SQLFreeHandle(SQL_HANDLE_STMT, st);

	SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
	if (check(SQLExecDirect(st, (SQLCHAR *)"select count(*), sum(amount) from od", SQL_NTS), "direct", SQL_HANDLE_STMT, st))
		dump(st, "total");
	SQLRETURN rc = SQLExecDirect(st, (SQLCHAR *)"select 1/0", SQL_NTS);
	if (!SQL_SUCCEEDED(rc)) diag("division", SQL_HANDLE_STMT, st);
	SQLFreeHandle(SQL_HANDLE_STMT, st);
	SQLDisconnect(dbc);
	printf("done\n");
	return 0;
}
