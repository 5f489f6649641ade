package storage

import (
	"context"
	"strings"
	"testing"
)

// Two transactions granting on different objects both commit (each
// change is replayed over the other's); a grant to a role dropped by a
// concurrent commit fails its commit; all of it survives a reopen.
func TestAuthConcurrentChangesAndReopen(t *testing.T) {
	dir := t.TempDir()
	db, err := Open(dir, Options{NoCompaction: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	setup := db.Begin()
	alice, bob := setup.NewRoleOID(), setup.NewRoleOID()
	if err := setup.AlterAuth(func(a *Auth) error {
		a.PutRole(Role{OID: alice, Name: "alice", Inherit: true, Login: true, Password: "SCRAM-SHA-256$4096:x$y:z"})
		a.PutRole(Role{OID: bob, Name: "bob", Inherit: true})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := setup.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	t1, t2 := db.Begin(), db.Begin()
	grant := func(txn *Txn, oid, role uint32) {
		t.Helper()
		if err := txn.AlterAuth(func(a *Auth) error {
			if _, ok := a.RoleByOID(role); !ok {
				return errNoRoleTest
			}
			a.Grant(oid, AllTablePrivs, 0, role, OIDBootstrapRole, PrivSelect, false)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	grant(t1, 20000, alice)
	grant(t2, 20002, alice)
	if err := t1.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := t2.Commit(ctx); err != nil {
		t.Fatalf("second grant on another object: %v", err)
	}
	a := db.Auth()
	if a.Privileges(alice, 20000, AllTablePrivs, 0) != PrivSelect || a.Privileges(alice, 20002, AllTablePrivs, 0) != PrivSelect {
		t.Fatalf("both grants: %+v", a.Objects)
	}
	// A grant to bob races bob's DROP ROLE: the later commit fails.
	t3, t4 := db.Begin(), db.Begin()
	grant(t3, 20000, bob)
	if err := t4.AlterAuth(func(a *Auth) error { a.DropRole(bob); return nil }); err != nil {
		t.Fatal(err)
	}
	if err := t4.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := t3.Commit(ctx); err == nil || !strings.Contains(err.Error(), "no such role") {
		t.Fatalf("grant to a dropped role committed: %v", err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err = Open(dir, Options{NoCompaction: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	a = db.Auth()
	r, ok := a.RoleByName("alice")
	if !ok || !r.Login || r.Password != "SCRAM-SHA-256$4096:x$y:z" {
		t.Fatalf("alice after reopen: %+v %v", r, ok)
	}
	if _, ok := a.RoleByName("bob"); ok {
		t.Fatal("bob survived his DROP ROLE")
	}
	if a.Privileges(alice, 20002, AllTablePrivs, 0) != PrivSelect || a.Privileges(bob, 20000, AllTablePrivs, 0) != 0 {
		t.Fatalf("grants after reopen: %+v", a.Objects)
	}
	if got := PrivString(a.EffectiveACL(20000, AllTablePrivs, 0)[0].Privs); got != "arwdDxt" {
		t.Fatalf("owner's privileges: %s", got)
	}
}

var errNoRoleTest = &testErr{"no such role"}

type testErr struct{ s string }

func (e *testErr) Error() string { return e.s }

// Membership: privileges flow through INHERIT roles only; SET ROLE
// (inheritOnly false) follows every membership.
func TestAuthMembership(t *testing.T) {
	a := &Auth{}
	a.PutRole(Role{OID: 100, Name: "u", Inherit: true})
	a.PutRole(Role{OID: 102, Name: "mid", Inherit: false})
	a.PutRole(Role{OID: 104, Name: "top", Inherit: true})
	a.Members = []Member{{Role: 102, Member: 100}, {Role: 104, Member: 102}}
	a.Grant(500, AllTablePrivs, 0, 104, OIDBootstrapRole, PrivSelect, false)
	a.Grant(500, AllTablePrivs, 0, 102, OIDBootstrapRole, PrivInsert, false)
	if got := a.Privileges(100, 500, AllTablePrivs, 0); got != PrivInsert {
		t.Fatalf("u's privileges through a NOINHERIT role: %s", PrivString(got))
	}
	if !a.MemberOf(100, 104, false) || a.MemberOf(100, 104, true) {
		t.Fatal("membership")
	}
}
