// Package console tests joind's web console (package console) in a real
// headless browser: Debian's chromium loads each page from a running joind
// holding real data (a table, statements run, a query running, a COPY half
// sent), the test asserts on the DOM chromium built, and screenshots of the
// drawn plan and of the COPY progress bar go to the artifacts directory
// ($JOIND_TEST_ARTIFACTS, else the system temp directory's
// joind-test-artifacts/console). Without chromium the test fails under
// CI=true and is skipped otherwise.
package console
