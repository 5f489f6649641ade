// Package sqlfuzz is a differential and metamorphic fuzzer over all of the
// SQL joind supports. See the package documentation at the end of this
// comment for the generator, the comparison rules and the knobs.
//
// (Full documentation follows in a later revision of this file.)
package sqlfuzz
