package types

import (
	"encoding/binary"
	"strings"
	"sync"
	"time"
)

// Dynamic zone abbreviations (the Default set's "MSK Europe/Moscow" lines):
// PostgreSQL resolves one through its zone's history
// (pg_interpret_timezone_abbrev): at an instant, the offset the abbreviation
// had in the period then in force, else in the latest earlier period that
// used it, else in the first later one. joind builds that as a zone of its
// own, one period per change of the abbreviation's meaning, so every zone
// code path (input, AT TIME ZONE, date_trunc, make_timestamptz) handles it.

var dynamicAbbrevZones = map[string]string{"art": "America/Argentina/Buenos_Aires", "arst": "America/Argentina/Buenos_Aires", "clt": "America/Santiago", "gyt": "America/Guyana", "pyt": "America/Asuncion", "vet": "America/Caracas", "davt": "Antarctica/Davis", "mawt": "Antarctica/Mawson", "amst": "Asia/Yerevan", "anast": "Asia/Anadyr", "anat": "Asia/Anadyr", "azst": "Asia/Baku", "azt": "Asia/Baku", "gest": "Asia/Tbilisi", "get": "Asia/Tbilisi", "irkst": "Asia/Irkutsk", "irkt": "Asia/Irkutsk", "kgt": "Asia/Bishkek", "krast": "Asia/Krasnoyarsk", "krat": "Asia/Krasnoyarsk", "lkt": "Asia/Colombo", "magst": "Asia/Magadan", "magt": "Asia/Magadan", "novst": "Asia/Novosibirsk", "novt": "Asia/Novosibirsk", "omsst": "Asia/Omsk", "omst": "Asia/Omsk", "petst": "Asia/Kamchatka", "pett": "Asia/Kamchatka", "sgt": "Asia/Singapore", "tmt": "Asia/Ashgabat", "ulat": "Asia/Ulaanbaatar", "vlast": "Asia/Vladivostok", "vlat": "Asia/Vladivostok", "yakst": "Asia/Yakutsk", "yakt": "Asia/Yakutsk", "yekt": "Asia/Yekaterinburg", "fkst": "Atlantic/Stanley", "fkt": "Atlantic/Stanley", "lhdt": "Australia/Lord_Howe", "msk": "Europe/Moscow", "volt": "Europe/Volgograd", "iot": "Indian/Chagos", "ckt": "Pacific/Rarotonga", "easst": "Pacific/Easter", "east": "Pacific/Easter", "kost": "Pacific/Kosrae", "lint": "Pacific/Kiritimati", "nut": "Pacific/Niue", "tkt": "Pacific/Fakaofo"}

var dynamicAbbrevCache sync.Map // abbreviation → *time.Location

// abbrevZonePrefix names the zones abbrevMeaningZone builds.
const abbrevZonePrefix = "abbrev:"

// abbrevLocalToUTC reads a wall-clock time in such a zone as
// DetermineTimeZoneAbbrevOffset does: probe the instant with the offset
// before any change, then take the abbreviation's meaning at that instant
// (so a wall time in the gap of a change reads the new meaning).
func abbrevLocalToUTC(wall int64, loc *time.Location) int64 {
	probe := wall - int64(localOffset(floorDiv(wall, usecsPerSec), loc))*usecsPerSec
	_, off := zoneAt(probe, loc)
	return wall - int64(off)*usecsPerSec
}

// dynamicAbbrevZone returns the zone of a dynamic abbreviation (lower case),
// or nil when abbr is none.
func dynamicAbbrevZone(abbr string) *time.Location {
	zone, ok := dynamicAbbrevZones[abbr]
	if !ok {
		return nil
	}
	if loc, ok := dynamicAbbrevCache.Load(abbr); ok {
		return loc.(*time.Location)
	}
	real, err := time.LoadLocation(zone)
	if err != nil {
		return nil
	}
	loc := abbrevMeaningZone(strings.ToUpper(abbr), real)
	dynamicAbbrevCache.Store(abbr, loc)
	return loc
}

// abbrevMeaningZone is the zone whose offset at each instant is what abbr
// means in real then. TZif version 1 covers 1901–2038, as the periods
// PostgreSQL's tzdata gives abbreviations do.
func abbrevMeaningZone(abbr string, real *time.Location) *time.Location {
	type period struct {
		start int64
		name  string
		off   int
	}
	var ps []period
	t := time.Unix(-1<<31, 0).In(real)
	for len(ps) < 2000 {
		name, off := t.Zone()
		ps = append(ps, period{t.Unix(), name, off})
		_, end := t.ZoneBounds()
		if end.IsZero() || end.Unix() >= 1<<31-1 {
			break
		}
		t = end.In(real)
	}
	meaning := make([]int, len(ps))
	first := -1
	for i, p := range ps {
		if p.name == abbr {
			first = i
			break
		}
	}
	if first < 0 {
		return real // never used there: the zone's own offsets (DetermineTimeZoneAbbrevOffset)
	}
	last := ps[first].off
	for i, p := range ps {
		if p.name == abbr {
			last = p.off
		}
		meaning[i] = last
	}
	// TZif v1: header, transitions, their type indexes, types, names.
	var times []int64
	var offs []int
	for i, p := range ps {
		if i == 0 || meaning[i] != offs[len(offs)-1] {
			times, offs = append(times, p.start), append(offs, meaning[i])
		}
	}
	b := append([]byte("TZif"), make([]byte, 16)...)
	for _, n := range []int{0, 0, 0, len(times) - 1, len(offs), len(abbr) + 1} {
		b = binary.BigEndian.AppendUint32(b, uint32(n))
	}
	for _, tt := range times[1:] {
		b = binary.BigEndian.AppendUint32(b, uint32(int32(tt)))
	}
	for i := range times[1:] {
		b = append(b, byte(i+1))
	}
	for _, o := range offs {
		b = append(binary.BigEndian.AppendUint32(b, uint32(int32(o))), 0, 0)
	}
	b = append(append(b, abbr...), 0)
	loc, err := time.LoadLocationFromTZData(abbrevZonePrefix+abbr, b)
	if err != nil {
		return time.FixedZone(abbr, offs[len(offs)-1])
	}
	return loc
}
