package drivers

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/joind/joind/regress/joindtest"
)

// TestPgJDBC compiles and runs testdata/JdbcCheck.java with pgjdbc. Its
// expected output, testdata/jdbc.out, is what the program prints against
// PostgreSQL 15 (ResultSetMetaData.isNullable included: joind sends table
// OIDs and attribute numbers in RowDescription, so pgjdbc looks columns up).
func TestPgJDBC(t *testing.T) {
	javac := need(t, "javac (default-jdk-headless)", "javac")
	java := need(t, "java", "java")
	jar := need(t, "pgjdbc (libpostgresql-jdbc-java)", "/usr/share/java/postgresql.jar")
	classes := t.TempDir()
	run(t, nil, "", javac, "-d", classes, "-cp", jar, filepath.Join("testdata", "JdbcCheck.java"))
	j := joindtest.StartJoind(t)
	url := "jdbc:postgresql://127.0.0.1:" + itoa(j.Port()) + "/regression"
	got := run(t, nil, "", java, "-cp", classes+string(os.PathListSeparator)+jar, "JdbcCheck", url)
	want, err := os.ReadFile(filepath.Join("testdata", "jdbc.out"))
	if err != nil {
		t.Fatal(err)
	}
	sameLines(t, "pgjdbc", got, string(want))
}
