// Package layering enforces joind's one-way imports. The picture in
// ARCHITECTURE.md ("Imports, as a picture") is the table: every package of
// the module has a line there naming exactly the joind packages it imports
// (tests excluded), and the test in this package fails when the code and the
// picture disagree, when a package is missing from it, or when the picture
// has a cycle. To add a package, add its line to the picture.
package layering
