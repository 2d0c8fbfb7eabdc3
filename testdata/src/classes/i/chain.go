package i

import "database/sql"

// purgeChain builds 40 closures, each capturing the one before, and
// returns the outermost; the innermost deletes payouts.
func purgeChain(db *sql.DB) func() {
	f0 := func() { db.Exec("DELETE FROM payouts WHERE tenant_id = $1", 1) }
	f1 := func() { f0() }
	f2 := func() { f1() }
	f3 := func() { f2() }
	f4 := func() { f3() }
	f5 := func() { f4() }
	f6 := func() { f5() }
	f7 := func() { f6() }
	f8 := func() { f7() }
	f9 := func() { f8() }
	f10 := func() { f9() }
	f11 := func() { f10() }
	f12 := func() { f11() }
	f13 := func() { f12() }
	f14 := func() { f13() }
	f15 := func() { f14() }
	f16 := func() { f15() }
	f17 := func() { f16() }
	f18 := func() { f17() }
	f19 := func() { f18() }
	f20 := func() { f19() }
	f21 := func() { f20() }
	f22 := func() { f21() }
	f23 := func() { f22() }
	f24 := func() { f23() }
	f25 := func() { f24() }
	f26 := func() { f25() }
	f27 := func() { f26() }
	f28 := func() { f27() }
	f29 := func() { f28() }
	f30 := func() { f29() }
	f31 := func() { f30() }
	f32 := func() { f31() }
	f33 := func() { f32() }
	f34 := func() { f33() }
	f35 := func() { f34() }
	f36 := func() { f35() }
	f37 := func() { f36() }
	f38 := func() { f37() }
	f39 := func() { f38() }
	f40 := func() { f39() }
	return f40
}

// noteChain is purgeChain with an allowed write at the bottom.
func noteChain(db *sql.DB) func() {
	f0 := func() { db.Exec("DELETE FROM refund_notes WHERE tenant_id = $1", 1) }
	f1 := func() { f0() }
	f2 := func() { f1() }
	f3 := func() { f2() }
	f4 := func() { f3() }
	f5 := func() { f4() }
	f6 := func() { f5() }
	f7 := func() { f6() }
	f8 := func() { f7() }
	f9 := func() { f8() }
	f10 := func() { f9() }
	f11 := func() { f10() }
	f12 := func() { f11() }
	f13 := func() { f12() }
	f14 := func() { f13() }
	f15 := func() { f14() }
	f16 := func() { f15() }
	f17 := func() { f16() }
	f18 := func() { f17() }
	f19 := func() { f18() }
	f20 := func() { f19() }
	f21 := func() { f20() }
	f22 := func() { f21() }
	f23 := func() { f22() }
	f24 := func() { f23() }
	f25 := func() { f24() }
	f26 := func() { f25() }
	f27 := func() { f26() }
	f28 := func() { f27() }
	f29 := func() { f28() }
	f30 := func() { f29() }
	f31 := func() { f30() }
	f32 := func() { f31() }
	f33 := func() { f32() }
	f34 := func() { f33() }
	f35 := func() { f34() }
	f36 := func() { f35() }
	f37 := func() { f36() }
	f38 := func() { f37() }
	f39 := func() { f38() }
	f40 := func() { f39() }
	return f40
}
