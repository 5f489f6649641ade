// Package executor turns a physical plan (optimizer.Physical) into running
// operators and runs it.
//
// The builder (build.go) makes exactly one operator per physical node,
// switching on the node's physical operator (optimizer.Op) only: every
// decision — the build side and the join type as executed, keys in (build,
// probe) order, the partition mode and count, the exchanges (Gather,
// Repartition) wherever partitioning changes — is already in the plan, so
// join.Spec is filled by plain field copy and no operator constructor
// inserts an exchange. The builder is also the statement's
// operators.SubqueryRunner: it plans each subquery expression once
// (optimizer.Plan) and runs it per outer row, runs a LATERAL join's right
// side per left row (apply.go), materializes each WITH query at most
// once per statement, and builds WITH RECURSIVE's recursive term once, or
// per iteration when its operators cannot be reopened (recursive.go).
//
// A Query is one statement's built plan: Run / Open read its root, which the
// optimizer always makes one partition; Note adds EXPLAIN's run-time facts
// (the join index, EXPLAIN ANALYZE's actual rows and time).
//
// executor imports optimizer, operators, operators/join, sql/plan, types and
// pgerr; only engine imports it.
package executor
