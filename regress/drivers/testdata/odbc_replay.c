/* Replays a client's ODBC call sequence through unixODBC and psqlODBC.
 * argv[1] is the connection string; the script on stdin has one call per
 * line, "VERB<TAB>arguments":
 *   INFO     nT,nT,...           SQLGetInfo of each info type n, whose value
 *                                is a string (T = s), 16-bit (h) or 32-bit (i)
 *   TABLES   schema<TAB>table<TAB>types   SQLTables (an empty field: NULL)
 *   COLUMNS  schema<TAB>table    SQLColumns
 *   PKEYS    schema<TAB>table    SQLPrimaryKeys
 *   FKEYS    schema<TAB>table    SQLForeignKeys of the table's imported keys
 *   STATS    schema<TAB>table    SQLStatistics (unique indexes and all)
 *   TYPES                        SQLGetTypeInfo(SQL_ALL_TYPES)
 *   DESCRIBE sql                 SQLExecDirect, then each column's SQLDescribeCol
 *   QUERY    sql                 SQLExecDirect, then every row
 * Every result is printed a line per row; the Go test compares the output
 * on joind with the output on PostgreSQL. Lines starting with # are
 * comments. */
#include <sql.h>
#include <sqlext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static SQLHDBC dbc;

/* oneline prints s with each newline as a backslash and n, so every result line of the
 * transcript starts with two spaces. */
static void oneline(const char *s) {
	for (; *s; s++) {
		if (*s == '\n') fputs("\\n", stdout);
		else putchar(*s);
	}
}

static void diag(const char *what, SQLSMALLINT type, SQLHANDLE h) {
	SQLCHAR state[6], msg[512];
	SQLINTEGER native;
	SQLSMALLINT len;
	if (SQLGetDiagRec(type, h, 1, state, &native, msg, sizeof msg, &len) == SQL_SUCCESS)
	{
		printf("  error %s ", state);
		oneline((char *)msg);
		printf("\n");
	}
	else
		printf("  error (no diagnostics)\n");
}

static void dump(SQLHSTMT st) {
	SQLSMALLINT ncol;
	SQLNumResultCols(st, &ncol);
	int rows = 0;
	while (SQL_SUCCEEDED(SQLFetch(st))) {
		printf(" ");
		for (int i = 1; i <= ncol; i++) {
			char buf[1024];
			SQLLEN ind;
			SQLGetData(st, i, SQL_C_CHAR, buf, sizeof buf, &ind);
			printf("%s", i > 1 ? "|" : " ");
			oneline(ind == SQL_NULL_DATA ? "NULL" : buf);
		}
		printf("\n");
		rows++;
	}
	printf("  (%d rows)\n", rows);
	SQLCloseCursor(st);
}

static void describe(SQLHSTMT st) {
	SQLSMALLINT ncol;
	SQLNumResultCols(st, &ncol);
	for (int i = 1; i <= ncol; i++) {
		SQLCHAR cname[256];
		SQLSMALLINT nlen, dtype, digits, nullable;
		SQLULEN size;
		SQLDescribeCol(st, i, cname, sizeof cname, &nlen, &dtype, &size, &digits, &nullable);
		printf("  column %s type %d size %lu digits %d nullable %d\n", cname, dtype, (unsigned long)size, digits, nullable);
	}
	SQLCloseCursor(st);
}

/* field returns the n-th tab-separated field of s (NULL when empty). */
static SQLCHAR *field(char *fields[], int n) {
	return fields[n] && fields[n][0] ? (SQLCHAR *)fields[n] : NULL;
}

int main(int argc, char **argv) {
	SQLHENV env;
	SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &env);
	SQLSetEnvAttr(env, SQL_ATTR_ODBC_VERSION, (void *)SQL_OV_ODBC3, 0);
	SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc);
	if (!SQL_SUCCEEDED(SQLDriverConnect(dbc, NULL, (SQLCHAR *)argv[1], SQL_NTS, NULL, 0, NULL, SQL_DRIVER_NOPROMPT))) {
		diag("connect", SQL_HANDLE_DBC, dbc);
		return 1;
	}
	printf("connected\n");
	char line[8192];
	while (fgets(line, sizeof line, stdin)) {
		line[strcspn(line, "\n")] = 0;
		if (!line[0] || line[0] == '#') continue;
		char *fields[8] = {0};
		int nf = 0;
		for (char *p = line; p && nf < 8; nf++) {
			fields[nf] = p;
			p = strchr(p, '\t');
			if (p) *p++ = 0;
		}
		printf("%s", fields[0]);
		for (int i = 1; i < nf; i++) printf(" %s", fields[i]);
		printf("\n");
		SQLHSTMT st;
		SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
		SQLRETURN rc = SQL_SUCCESS;
		const char *verb = fields[0];
		if (!strcmp(verb, "INFO")) {
			for (char *tok = strtok(fields[1], ","); tok; tok = strtok(NULL, ",")) {
				int info = atoi(tok);
				char kind = tok[strlen(tok) - 1];
				char buf[4096] = {0};
				SQLSMALLINT len = 0;
				if (!SQL_SUCCEEDED(SQLGetInfo(dbc, (SQLUSMALLINT)info, buf, sizeof buf, &len))) {
					printf("  info %d: failed\n", info);
				} else if (kind == 'h') {
					printf("  info %d = %u\n", info, *(SQLUSMALLINT *)buf);
				} else if (kind == 'i') {
					printf("  info %d = %u\n", info, *(SQLUINTEGER *)buf);
				} else {
					printf("  info %d = %s\n", info, buf);
				}
			}
		} else if (!strcmp(verb, "TABLES")) {
			rc = SQLTables(st, NULL, 0, field(fields, 1), SQL_NTS, field(fields, 2), SQL_NTS, field(fields, 3), SQL_NTS);
			if (SQL_SUCCEEDED(rc)) dump(st);
		} else if (!strcmp(verb, "COLUMNS")) {
			rc = SQLColumns(st, NULL, 0, field(fields, 1), SQL_NTS, field(fields, 2), SQL_NTS, NULL, 0);
			if (SQL_SUCCEEDED(rc)) dump(st);
		} else if (!strcmp(verb, "PKEYS")) {
			rc = SQLPrimaryKeys(st, NULL, 0, field(fields, 1), SQL_NTS, field(fields, 2), SQL_NTS);
			if (SQL_SUCCEEDED(rc)) dump(st);
		} else if (!strcmp(verb, "FKEYS")) {
			rc = SQLForeignKeys(st, NULL, 0, NULL, 0, NULL, 0, NULL, 0, field(fields, 1), SQL_NTS, field(fields, 2), SQL_NTS);
			if (SQL_SUCCEEDED(rc)) dump(st);
		} else if (!strcmp(verb, "STATS")) {
			rc = SQLStatistics(st, NULL, 0, field(fields, 1), SQL_NTS, field(fields, 2), SQL_NTS, SQL_INDEX_ALL, SQL_QUICK);
			if (SQL_SUCCEEDED(rc)) dump(st);
		} else if (!strcmp(verb, "TYPES")) {
			rc = SQLGetTypeInfo(st, SQL_ALL_TYPES);
			if (SQL_SUCCEEDED(rc)) dump(st);
		} else if (!strcmp(verb, "DESCRIBE")) {
			rc = SQLExecDirect(st, (SQLCHAR *)fields[1], SQL_NTS);
			if (SQL_SUCCEEDED(rc)) describe(st);
		} else if (!strcmp(verb, "QUERY")) {
			rc = SQLExecDirect(st, (SQLCHAR *)fields[1], SQL_NTS);
			if (SQL_SUCCEEDED(rc)) {
				SQLSMALLINT ncol = 0;
				SQLNumResultCols(st, &ncol);
				if (ncol > 0) dump(st);
				else printf("  ok\n");
			}
		} else {
			printf("  unknown verb\n");
		}
		if (!SQL_SUCCEEDED(rc)) diag(verb, SQL_HANDLE_STMT, st);
		SQLFreeHandle(SQL_HANDLE_STMT, st);
	}
	SQLDisconnect(dbc);
	printf("done\n");
	return 0;
}
