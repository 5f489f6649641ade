package types

// Exports for operators' vectorized kernels: the scalar steps they repeat
// inline, so a kernel and the overload it replaces share one definition.

// DateToTimestamp is a date's midnight as date/timestamp comparisons see it
// (date_cmp_timestamp_internal): infinities map to infinities, a date past
// the last timestamp saturates just below infinity.
func DateToTimestamp(d int64) int64 { return dateToTimestamp(d) }

// DatePlusDays is date + integer (and date - integer with k negated) as
// date_pli computes it: infinite dates stay, a result outside the date
// range fails with 22008 "date out of range".
func DatePlusDays(d, k int64) (int64, error) {
	if isInfDate(d) {
		return d, nil
	}
	r := d + k
	if !dateValid(int(r + unixEpochJD)) {
		return 0, errDateOutOfRange()
	}
	return r, nil
}
