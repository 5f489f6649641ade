package pgcatalog

import (
	"strconv"

	"github.com/joind/joind/types"
)

// pg_proc, pg_aggregate, pg_operator and pg_cast over the built-ins joind
// has (pgproc.go). Their regproc columns are the function's name, as
// PostgreSQL prints them, except pg_aggregate.aggfnoid, the aggregate's
// OID, which clients join to pg_proc.oid (joind has no regproc type).

func declareBuiltinRoutines() {
	declare(pc, "pg_proc", 1255, 'r', func(s *Snapshot) []pgProcRow {
		var out []pgProcRow
		for _, r := range builtinRoutines().procs {
			out = append(out, pgProcRow{Oid: OID(parseOID(r[ppOID])), Proname: Name(r[ppName]), Pronamespace: OIDNamespacePgCatalog,
				Proowner: OIDBootstrapUser, Prolang: OID(parseOID(r[ppLang])), Procost: float32(parseFloat(r[ppCost])),
				Prorows: float32(parseFloat(r[ppRows])), Provariadic: OID(parseOID(r[ppVariadic])), Prosupport: r[ppSupport],
				Prokind: r[ppKind][0], Prosecdef: r[ppSecdef] == "t", Proleakproof: r[ppLeakproof] == "t",
				Proisstrict: r[ppStrict] == "t", Proretset: r[ppRetset] == "t", Provolatile: r[ppVolatile][0],
				Proparallel: r[ppParallel][0], Pronargs: int16(parseInt(r[ppNargs])), Pronargdefaults: int16(parseInt(r[ppNargdefaults])),
				Prorettype: OID(parseOID(r[ppRettype])), Proargtypes: oidVector(r[ppArgtypes]), Proallargtypes: nullable(r[ppAllargtypes]),
				Proargmodes: nullable(r[ppArgmodes]), Proargnames: nullable(r[ppArgnames]), Prosrc: r[ppSrc]})
		}
		return append(out, userProcRows(s)...) // pgproc_user.go
	})
	declare(pc, "pg_aggregate", 2600, 'r', func(*Snapshot) []pgAggregateRow {
		var out []pgAggregateRow
		for _, r := range builtinRoutines().aggs {
			out = append(out, pgAggregateRow{Aggfnoid: OID(parseOID(r[0])), Aggkind: r[1][0], Aggnumdirectargs: int16(parseInt(r[2])),
				Aggtransfn: r[3], Aggfinalfn: r[4], Aggcombinefn: r[5], Aggserialfn: r[6], Aggdeserialfn: r[7], Aggmtransfn: r[8],
				Aggminvtransfn: r[9], Aggmfinalfn: r[10], Aggfinalextra: r[11] == "t", Aggmfinalextra: r[12] == "t",
				Aggfinalmodify: r[13][0], Aggmfinalmodify: r[14][0], Aggsortop: OID(parseOID(r[15])), Aggtranstype: OID(parseOID(r[16])),
				Aggtransspace: int32(parseInt(r[17])), Aggmtranstype: OID(parseOID(r[18])), Aggmtransspace: int32(parseInt(r[19])),
				Agginitval: nullable(r[20]), Aggminitval: nullable(r[21])})
		}
		return out
	})
	declare(pc, "pg_operator", 2617, 'r', func(*Snapshot) []pgOperatorRow {
		var out []pgOperatorRow
		for _, r := range builtinRoutines().operators {
			out = append(out, pgOperatorRow{Oid: OID(parseOID(r[poOID])), Oprname: Name(r[poName]), Oprnamespace: OIDNamespacePgCatalog,
				Oprowner: OIDBootstrapUser, Oprkind: r[poKind][0], Oprcanmerge: r[poCanmerge] == "t", Oprcanhash: r[poCanhash] == "t",
				Oprleft: OID(parseOID(r[poLeft])), Oprright: OID(parseOID(r[poRight])), Oprresult: OID(parseOID(r[poResult])),
				Oprcom: OID(parseOID(r[poCom])), Oprnegate: OID(parseOID(r[poNegate])), Oprcode: r[poCode], Oprrest: r[poRest],
				Oprjoin: r[poJoin]})
		}
		return out
	})
	declare(pc, "pg_cast", 2605, 'r', func(*Snapshot) []pgCastRow {
		var out []pgCastRow
		for _, r := range builtinCasts {
			out = append(out, pgCastRow{Oid: OID(parseOID(r[0])), Castsource: OID(parseOID(r[1])), Casttarget: OID(parseOID(r[2])),
				Castfunc: OID(parseOID(r[3])), Castcontext: r[4][0], Castmethod: r[5][0]})
		}
		return out
	})
	declare(pc, "pg_language", 2612, 'r', func(*Snapshot) []pgLanguageRow {
		// initdb's four: internal and sql, which joind's built-ins are in,
		// plpgsql, the language of the plpgsql extension pg_extension
		// lists, and c, its handlers'. CREATE FUNCTION in c or plpgsql is
		// 0A000 (sql/function.go).
		var out []pgLanguageRow
		for _, r := range pgdata("pg_language") {
			out = append(out, pgLanguageRow{Oid: OID(parseOID(r[0])), Lanname: Name(r[1]), Lanowner: OIDBootstrapUser,
				Lanispl: r[2] == "t", Lanpltrusted: r[3] == "t", Lanplcallfoid: OID(parseOID(r[4])),
				Laninline: OID(parseOID(r[5])), Lanvalidator: OID(parseOID(r[6]))})
		}
		return out
	})
}

// pgLanguageRow is a row of pg_catalog.pg_language.
type pgLanguageRow struct {
	Oid           OID     `pg:"oid"`
	Lanname       Name    `pg:"lanname" type:"name"`
	Lanowner      OID     `pg:"lanowner"`
	Lanispl       bool    `pg:"lanispl"`
	Lanpltrusted  bool    `pg:"lanpltrusted"`
	Lanplcallfoid OID     `pg:"lanplcallfoid"`
	Laninline     OID     `pg:"laninline"`
	Lanvalidator  OID     `pg:"lanvalidator"`
	Lanacl        *string `pg:"lanacl"`
}

// builtinCasts are the pg_cast rows between types joind has whose cast
// joind has in the same context (types.CanCast).
var builtinCasts = func() []pgdataRow {
	var out []pgdataRow
	for _, r := range pgdata("pg_cast") {
		from, ok1 := TypeByOID(parseOID(r[1]))
		to, ok2 := TypeByOID(parseOID(r[2]))
		if !ok1 || !ok2 {
			continue
		}
		implicit, assignment, explicit := types.CanCast(from.T, to.T)
		if r[4] == "i" && implicit || r[4] == "a" && assignment || r[4] == "e" && explicit {
			out = append(out, r)
		}
	}
	return out
}()

func parseFloat(s string) float64 {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		panic("pgcatalog: bad number " + s)
	}
	return f
}

// pgProcRow is a row of pg_catalog.pg_proc.
type pgProcRow struct {
	Oid             OID       `pg:"oid"`
	Proname         Name      `pg:"proname" type:"name"`
	Pronamespace    OID       `pg:"pronamespace"`
	Proowner        OID       `pg:"proowner"`
	Prolang         OID       `pg:"prolang"`
	Procost         float32   `pg:"procost"`
	Prorows         float32   `pg:"prorows"`
	Provariadic     OID       `pg:"provariadic"`
	Prosupport      string    `pg:"prosupport"`
	Prokind         Char      `pg:"prokind"`
	Prosecdef       bool      `pg:"prosecdef"`
	Proleakproof    bool      `pg:"proleakproof"`
	Proisstrict     bool      `pg:"proisstrict"`
	Proretset       bool      `pg:"proretset"`
	Provolatile     Char      `pg:"provolatile"`
	Proparallel     Char      `pg:"proparallel"`
	Pronargs        int16     `pg:"pronargs"`
	Pronargdefaults int16     `pg:"pronargdefaults"`
	Prorettype      OID       `pg:"prorettype"`
	Proargtypes     OIDVector `pg:"proargtypes"`
	Proallargtypes  *string   `pg:"proallargtypes"`
	Proargmodes     *string   `pg:"proargmodes"`
	Proargnames     *string   `pg:"proargnames"`
	Proargdefaults  *string   `pg:"proargdefaults"` // joind has no pg_node_tree: NULL
	Protrftypes     *string   `pg:"protrftypes"`
	Prosrc          string    `pg:"prosrc"`
	Probin          *string   `pg:"probin"`
	Prosqlbody      *string   `pg:"prosqlbody"`
	Proconfig       *string   `pg:"proconfig"`
	Proacl          *string   `pg:"proacl"`
}

// pgAggregateRow is a row of pg_catalog.pg_aggregate.
type pgAggregateRow struct {
	Aggfnoid         OID     `pg:"aggfnoid"`
	Aggkind          Char    `pg:"aggkind"`
	Aggnumdirectargs int16   `pg:"aggnumdirectargs"`
	Aggtransfn       string  `pg:"aggtransfn"`
	Aggfinalfn       string  `pg:"aggfinalfn"`
	Aggcombinefn     string  `pg:"aggcombinefn"`
	Aggserialfn      string  `pg:"aggserialfn"`
	Aggdeserialfn    string  `pg:"aggdeserialfn"`
	Aggmtransfn      string  `pg:"aggmtransfn"`
	Aggminvtransfn   string  `pg:"aggminvtransfn"`
	Aggmfinalfn      string  `pg:"aggmfinalfn"`
	Aggfinalextra    bool    `pg:"aggfinalextra"`
	Aggmfinalextra   bool    `pg:"aggmfinalextra"`
	Aggfinalmodify   Char    `pg:"aggfinalmodify"`
	Aggmfinalmodify  Char    `pg:"aggmfinalmodify"`
	Aggsortop        OID     `pg:"aggsortop"`
	Aggtranstype     OID     `pg:"aggtranstype"`
	Aggtransspace    int32   `pg:"aggtransspace"`
	Aggmtranstype    OID     `pg:"aggmtranstype"`
	Aggmtransspace   int32   `pg:"aggmtransspace"`
	Agginitval       *string `pg:"agginitval"`
	Aggminitval      *string `pg:"aggminitval"`
}

// pgOperatorRow is a row of pg_catalog.pg_operator.
type pgOperatorRow struct {
	Oid          OID    `pg:"oid"`
	Oprname      Name   `pg:"oprname" type:"name"`
	Oprnamespace OID    `pg:"oprnamespace"`
	Oprowner     OID    `pg:"oprowner"`
	Oprkind      Char   `pg:"oprkind"`
	Oprcanmerge  bool   `pg:"oprcanmerge"`
	Oprcanhash   bool   `pg:"oprcanhash"`
	Oprleft      OID    `pg:"oprleft"`
	Oprright     OID    `pg:"oprright"`
	Oprresult    OID    `pg:"oprresult"`
	Oprcom       OID    `pg:"oprcom"`
	Oprnegate    OID    `pg:"oprnegate"`
	Oprcode      string `pg:"oprcode"`
	Oprrest      string `pg:"oprrest"`
	Oprjoin      string `pg:"oprjoin"`
}

// pgCastRow is a row of pg_catalog.pg_cast.
type pgCastRow struct {
	Oid         OID  `pg:"oid"`
	Castsource  OID  `pg:"castsource"`
	Casttarget  OID  `pg:"casttarget"`
	Castfunc    OID  `pg:"castfunc"`
	Castcontext Char `pg:"castcontext"`
	Castmethod  Char `pg:"castmethod"`
}
